// Settings > Services over HTTP: the industries list, an industry's page, adding a product and
// an industry with the forms, errors next to their field, reorder, archive after confirmation,
// and the other environment's and account's items as 404 pages.
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestAccount, type TestAccount, type TestApp } from './helpers/app.ts';
import { type FormClient, startSignedIn } from './helpers/forms.ts';

const SERVICES = '/dashboard/settings/services';
let t: TestApp;
let acct: TestAccount;
let browser: FormClient;
let csrf: string;

beforeAll(async () => {
  ({ t, acct, browser, csrf } = await startSignedIn({ workers: false }));
  return t.close;
});

async function junkProducts() {
  const res = await acct.api.get('/v1/services/industries/junk-removal/products');
  return res.body.categories as {
    id: string;
    slug: string;
    products: { id: string; name: string; base_price: number }[];
  }[];
}

describe('Settings > Services', () => {
  it('lists every industry, inactive ones marked, with Services current in the nav', async () => {
    await acct.api.patch('/v1/services/industries/carpet-cleaning', { is_active: false });
    const page = await browser.get(SERVICES);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Residential Cleaning');
    expect(page.text).toMatch(/data-industry="carpet-cleaning"[\s\S]*?Inactive/);
    expect(page.text).toContain(`<a href="${SERVICES}" aria-current="page">Services</a>`);
    await acct.api.patch('/v1/services/industries/carpet-cleaning', { is_active: true });
  });

  it('adds a product with the form; a bad price is refused next to the price field', async () => {
    const [furniture] = await junkProducts();
    const fields = { _csrf: csrf, category_id: furniture!.id, name: 'Piano', minutes: '45', in_catalog: 'yes' };
    const bad = await browser.post(`${SERVICES}/junk-removal/products`, { ...fields, price: 'twelve' });
    expect(bad.status).toBe(400);
    expect(bad.text).toMatch(/id="product-price"[^>]*aria-invalid="true"/);
    expect(bad.text).toMatch(/<span class="field-error" id="base_price-error" role="alert">Enter an amount in dollars/);
    expect(bad.text).toContain('value="Piano"');
    expect((await junkProducts())[0]!.products.map((p) => p.name)).not.toContain('Piano');

    const added = await browser.post(`${SERVICES}/junk-removal/products`, { ...fields, price: '$1,250.50' });
    expect(added.status).toBe(303);
    expect(added.location).toBe(`${SERVICES}/junk-removal?done=added`);
    const piano = (await junkProducts())[0]!.products.find((p) => p.name === 'Piano');
    expect(piano).toMatchObject({ base_price: 125050 });
    const page = await browser.get(`${SERVICES}/junk-removal`);
    expect(page.text).toContain('$1,250.50');
    expect(page.text).toContain('45 min');

    // a taken slug is shown next to the slug field
    const taken = await browser.post(`${SERVICES}/junk-removal/products`, { ...fields, price: '10', slug: 'sofa' });
    expect(taken.status).toBe(400);
    expect(taken.text).toMatch(/id="slug-error" role="alert">Another product of this industry has this slug/);
  });

  it('edits and reorders a product', async () => {
    const [furniture] = await junkProducts();
    const first = furniture!.products[0]!;
    const edit = await browser.get(`${SERVICES}/junk-removal/products/${first.id}`);
    expect(edit.status).toBe(200);
    expect(edit.text).toContain(`value="${(first.base_price / 100).toFixed(2)}"`);
    const saved = await browser.post(`${SERVICES}/junk-removal/products/${first.id}`, {
      _csrf: csrf,
      category_id: furniture!.id,
      name: `${first.name} (large)`,
      price: '99',
      minutes: '30',
      slug: '',
      description: '',
      in_catalog: 'yes',
    });
    expect(saved.status).toBe(303);
    const moved = await browser.post(`${SERVICES}/junk-removal/products/${first.id}/move`, {
      _csrf: csrf,
      direction: 'down',
    });
    expect(moved.status).toBe(303);
    const after = (await junkProducts())[0]!.products;
    expect(after[1]).toMatchObject({ id: first.id, name: `${first.name} (large)`, base_price: 9900 });
  });

  it('archives a product after a confirmation step; a room product is refused on that step', async () => {
    const [furniture] = await junkProducts();
    const product = furniture!.products.at(-1)!;
    const confirm = await browser.get(`${SERVICES}/junk-removal/products/${product.id}/archive`);
    expect(confirm.status).toBe(200);
    expect(confirm.text).toContain('Archive product');
    expect(confirm.text).toContain(`action="${SERVICES}/junk-removal/products/${product.id}/archive"`);
    expect((await junkProducts())[0]!.products.map((p) => p.id)).toContain(product.id);
    const done = await browser.post(`${SERVICES}/junk-removal/products/${product.id}/archive`, { _csrf: csrf });
    expect(done.status).toBe(303);
    expect((await junkProducts())[0]!.products.map((p) => p.id)).not.toContain(product.id);
    expect((await browser.get(`${SERVICES}/junk-removal/products/${product.id}`)).status).toBe(404);

    const rooms = await acct.api.get('/v1/services/industries/residential-cleaning/products');
    const visit = rooms.body.categories[0].products[0].id as string;
    const refused = await browser.post(`${SERVICES}/residential-cleaning/products/${visit}/archive`, { _csrf: csrf });
    expect(refused.status).toBe(409);
    expect(refused.text).toContain('visit product');
    // without the CSRF token nothing happens
    const forged = await browser.post(`${SERVICES}/junk-removal/products/${furniture!.products[0]!.id}/archive`, {});
    expect(forged.status).toBe(403);
  });

  it('adds a room_based industry with its room products; errors name the room field', async () => {
    const fields = {
      _csrf: csrf,
      name: 'Office cleaning',
      configuration_type: 'room_based',
      visit_name: 'Visit',
      visit_price: '50',
      visit_minutes: '30',
      bedroom_name: 'Office',
      bedroom_price: '20',
      bedroom_minutes: '20',
      bathroom_name: 'Restroom',
      bathroom_price: 'x',
      bathroom_minutes: '15',
    };
    const bad = await browser.post(SERVICES, fields);
    expect(bad.status).toBe(400);
    expect(bad.text).toMatch(/id="bathroom-price"[^>]*aria-invalid="true"/);
    const added = await browser.post(SERVICES, { ...fields, bathroom_price: '25' });
    expect(added.status).toBe(303);
    expect(added.location).toBe(`${SERVICES}/office-cleaning?done=added`);
    const page = await browser.get(`${SERVICES}/office-cleaning`);
    expect(page.text).toContain('Restroom');
    expect(page.text).toContain('$25.00');
  });

  it('shows another account’s and the live environment’s items as 404 pages', async () => {
    const other = await createTestAccount(t, { demo: true });
    const theirs = await other.api.get('/v1/services/industries/junk-removal/products');
    const id = theirs.body.categories[0].products[0].id as string;
    expect((await browser.get(`${SERVICES}/junk-removal/products/${id}`)).status).toBe(404);
    const live = await acct.live.get('/v1/services/industries/junk-removal/products');
    const liveId = live.body.categories[0].products[0].id as string;
    expect((await browser.get(`${SERVICES}/junk-removal/products/${liveId}`)).status).toBe(404);
    expect((await browser.get(`${SERVICES}/window-washing`)).status).toBe(404);
    expect((await browser.get(`${SERVICES}/junk-removal/gadgets/${liveId}`)).status).toBe(404);
  });
});
