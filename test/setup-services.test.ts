// Setting up the service menu through the API (CONTRACT §11): industries, categories,
// products and extras; archiving; the rules the catalog file shares; isolation.
import { describe, expect, it } from 'vitest';
import { exportCatalog, importCatalog } from '../src/modules/catalog/index.ts';
import { createTestAccount, startTestApp } from './helpers/app.ts';
import { mondayInNewYork, sofaPickup } from './helpers/bookings.ts';
import { apiClient } from './helpers/http.ts';

const scene = mondayInNewYork();

let counter = 0;
/** A fresh item_based industry with one category, for tests that change things. */
async function itemIndustry() {
  counter += 1;
  const industry = await scene.acct.api.post('/v1/services/industries', {
    name: `Moving ${counter}`,
    configuration_type: 'item_based',
    icon: 'truck',
  });
  expect(industry.status, JSON.stringify(industry.body)).toBe(201);
  const slug = industry.body.slug as string;
  const category = await scene.acct.api.post(`/v1/services/industries/${slug}/categories`, { name: 'Furniture' });
  expect(category.status, JSON.stringify(category.body)).toBe(201);
  return { slug, categoryId: category.body.id as string };
}

const sofaQuote = (industry: string, productId: string) =>
  scene.acct.api.post('/v1/services/pricing', { industry, configuration: { items: [{ product_id: productId }] } });

describe('industries', () => {
  it('creates a room_based industry with its three room products, derives its slug, patches it', async () => {
    const room = { name: 'Office visit', base_price: 5000, minutes: 40 };
    const res = await scene.acct.api.post('/v1/services/industries', {
      name: 'Office Cleaning',
      description: 'Desks and floors.',
      configuration_type: 'room_based',
      room_products: { visit: room, bedroom: { ...room, name: 'Office' }, bathroom: { ...room, name: 'Restroom' } },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^ind_/),
      name: 'Office Cleaning',
      slug: 'office-cleaning',
      description: 'Desks and floors.',
      icon: '',
      configuration_type: 'room_based',
      is_active: true,
    });
    const products = await scene.acct.api.get('/v1/services/industries/office-cleaning/products');
    expect(products.body.categories).toHaveLength(1);
    expect(products.body.categories[0]).toMatchObject({ name: 'Rooms', slug: 'rooms' });
    expect(products.body.categories[0].products.map((p: { name: string }) => p.name)).toEqual([
      'Office visit',
      'Office',
      'Restroom',
    ]);
    const visit = await scene.acct.api.get(`/v1/services/products/${products.body.categories[0].products[0].id}`);
    expect(visit.body).toMatchObject({ room: 'visit', slug: 'office-visit', position: 0, minutes: 40 });
    // priced at once from the new products: visit + 2 bedrooms + 1 bathroom
    const quote = await scene.acct.api.post('/v1/services/pricing', {
      industry: 'office-cleaning',
      configuration: { bedrooms: 2, bathrooms: 1 },
    });
    expect(quote.status, JSON.stringify(quote.body)).toBe(200);
    expect(quote.body.base_price).toBe(20000);

    const patched = await scene.acct.api.patch('/v1/services/industries/office-cleaning', {
      name: 'Office cleaning',
      icon: 'building',
      position: 0,
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body).toMatchObject({ name: 'Office cleaning', icon: 'building', slug: 'office-cleaning' });
    const list = await scene.acct.api.get('/v1/services/industries');
    expect(list.body.data[0].slug).toBe('office-cleaning');
    await scene.acct.api.patch('/v1/services/industries/office-cleaning', { position: 99 });
    expect((await scene.acct.api.get('/v1/services/industries')).body.data.at(-1).slug).toBe('office-cleaning');
  });

  it('refuses room_products for other types, requires them for room_based, fixes slug and type', async () => {
    const withRooms = await scene.acct.api.post('/v1/services/industries', {
      name: 'Yard work',
      configuration_type: 'section_based',
      room_products: {
        visit: { name: 'a', base_price: 1, minutes: 1 },
        bedroom: { name: 'b', base_price: 1, minutes: 1 },
        bathroom: { name: 'c', base_price: 1, minutes: 1 },
      },
    });
    expect(withRooms.status).toBe(400);
    expect(withRooms.body.error).toMatchObject({ code: 'parameter_invalid', param: 'room_products' });
    const without = await scene.acct.api.post('/v1/services/industries', {
      name: 'Maids',
      configuration_type: 'room_based',
    });
    expect(without.status).toBe(400);
    expect(without.body.error).toMatchObject({ code: 'missing_required_field', param: 'room_products' });

    for (const [field, value] of [
      ['slug', 'other'],
      ['configuration_type', 'item_based'],
    ] as const) {
      const res = await scene.acct.api.patch('/v1/services/industries/junk-removal', { [field]: value });
      expect(res.status, field).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'parameter_invalid', param: field });
    }
    const unknown = await scene.acct.api.patch('/v1/services/industries/junk-removal', { colour: 'red' });
    expect(unknown.body.error).toMatchObject({ code: 'parameter_unknown', param: 'colour' });
    const missing = await scene.acct.api.patch('/v1/services/industries/window-washing', { name: 'Windows' });
    expect(missing.status).toBe(404);

    const duplicate = await scene.acct.api.post('/v1/services/industries', {
      name: 'Junk',
      slug: 'junk-removal',
      configuration_type: 'item_based',
    });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.error).toMatchObject({ code: 'resource_already_exists', param: 'slug' });
    const badSlug = await scene.acct.api.post('/v1/services/industries', {
      name: 'Junk',
      slug: 'Junk Removal',
      configuration_type: 'item_based',
    });
    expect(badSlug.body.error).toMatchObject({ code: 'parameter_invalid', param: 'slug' });
  });

  it('hides an inactive industry from the default list and shows it with include_inactive', async () => {
    const { slug } = await itemIndustry();
    const off = await scene.acct.api.patch(`/v1/services/industries/${slug}`, { is_active: false });
    expect(off.body.is_active).toBe(false);
    const active = await scene.acct.api.get('/v1/services/industries');
    expect(active.body.data.map((i: { slug: string }) => i.slug)).not.toContain(slug);
    const all = await scene.acct.api.get('/v1/services/industries?include_inactive=true');
    expect(all.body.data.find((i: { slug: string }) => i.slug === slug)).toMatchObject({ is_active: false });
    expect((await scene.acct.api.get(`/v1/services/industries/${slug}/products`)).status).toBe(404);
    // an inactive industry can still be set up
    const category = await scene.acct.api.post(`/v1/services/industries/${slug}/categories`, { name: 'Boxes' });
    expect(category.status).toBe(201);
  });
});

describe('categories', () => {
  it('creates, renames, reorders and archives; refuses to archive one with products', async () => {
    const { slug, categoryId } = await itemIndustry();
    const second = await scene.acct.api.post(`/v1/services/industries/${slug}/categories`, { name: 'Appliances' });
    expect(second.body).toEqual({
      id: expect.stringMatching(/^pcat_/),
      name: 'Appliances',
      slug: 'appliances',
      position: 1,
    });
    const moved = await scene.acct.api.patch(`/v1/services/categories/${second.body.id}`, {
      position: 0,
      name: 'Large appliances',
    });
    expect(moved.body).toMatchObject({ position: 0, name: 'Large appliances', slug: 'appliances' });
    const clash = await scene.acct.api.patch(`/v1/services/categories/${second.body.id}`, { slug: 'furniture' });
    expect(clash.status).toBe(409);
    expect(clash.body.error).toMatchObject({ code: 'resource_already_exists', param: 'slug' });
    const explicit = await scene.acct.api.post(`/v1/services/industries/${slug}/categories`, {
      name: 'F',
      slug: 'furniture',
    });
    expect(explicit.status).toBe(409);
    // a name already taken gets a numbered slug instead
    const again = await scene.acct.api.post(`/v1/services/industries/${slug}/categories`, { name: 'Furniture' });
    expect(again.body.slug).toBe('furniture-2');

    const product = await scene.acct.api.post(`/v1/services/industries/${slug}/products`, {
      category_id: categoryId,
      name: 'Sofa',
      base_price: 9000,
      minutes: 20,
    });
    const inUse = await scene.acct.api.delete(`/v1/services/categories/${categoryId}`);
    expect(inUse.status).toBe(409);
    expect(inUse.body.error.code).toBe('resource_in_use');
    expect(inUse.body.error.message).toContain(product.body.id);

    expect((await scene.acct.api.delete(`/v1/services/products/${product.body.id}`)).status).toBe(204);
    expect((await scene.acct.api.delete(`/v1/services/categories/${categoryId}`)).status).toBe(204);
    expect((await scene.acct.api.delete(`/v1/services/categories/${categoryId}`)).status).toBe(404);
    expect((await scene.acct.api.patch(`/v1/services/categories/${categoryId}`, { name: 'x' })).status).toBe(404);
    const listed = await scene.acct.api.get(`/v1/services/industries/${slug}/products`);
    expect(listed.body.categories.map((c: { id: string }) => c.id)).not.toContain(categoryId);
    // the slug of an archived category is free again
    const reused = await scene.acct.api.post(`/v1/services/industries/${slug}/categories`, { name: 'Furniture' });
    expect(reused.body.slug).toBe('furniture');
  });
});

describe('products', () => {
  it('creates, reads, patches and archives; prices follow on the next request', async () => {
    const { slug, categoryId } = await itemIndustry();
    const created = await scene.acct.api.post(`/v1/services/industries/${slug}/products`, {
      category_id: categoryId,
      name: 'Armchair',
      description: 'One seat',
      base_price: 4500,
      minutes: 15,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^prod_/),
      name: 'Armchair',
      base_price: 4500,
      description: 'One seat',
      in_catalog: true,
      category_id: categoryId,
      slug: 'armchair',
      minutes: 15,
      room: null,
      position: 0,
    });
    const id = created.body.id as string;
    expect((await scene.acct.api.get(`/v1/services/products/${id}`)).body).toEqual(created.body);
    expect((await sofaQuote(slug, id)).body.base_price).toBe(4500);

    const patched = await scene.acct.api.patch(`/v1/services/products/${id}`, { base_price: 5200, minutes: 25 });
    expect(patched.body).toMatchObject({ base_price: 5200, minutes: 25 });
    const quote = await sofaQuote(slug, id);
    expect(quote.body).toMatchObject({ base_price: 5200, estimated_duration: 25 });

    expect((await scene.acct.api.delete(`/v1/services/products/${id}`)).status).toBe(204);
    for (const res of [
      await scene.acct.api.get(`/v1/services/products/${id}`),
      await scene.acct.api.patch(`/v1/services/products/${id}`, { name: 'x' }),
      await scene.acct.api.delete(`/v1/services/products/${id}`),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('resource_not_found');
    }
    const listed = await scene.acct.api.get(`/v1/services/industries/${slug}/products`);
    expect(listed.body.categories[0].products).toEqual([]);
    expect((await sofaQuote(slug, id)).status).toBe(400);
  });

  it('refuses a category of another industry, bad money, room and unknown fields, duplicate slugs', async () => {
    const { slug, categoryId } = await itemIndustry();
    const other = await itemIndustry();
    const base = { category_id: categoryId, name: 'Desk', base_price: 3000, minutes: 10 };
    const foreign = await scene.acct.api.post(`/v1/services/industries/${slug}/products`, {
      ...base,
      category_id: other.categoryId,
    });
    expect(foreign.status).toBe(400);
    expect(foreign.body.error).toMatchObject({ code: 'resource_not_found', param: 'category_id' });
    for (const price of [-1, 12.5, '3000', 100_000_001]) {
      const bad = await scene.acct.api.post(`/v1/services/industries/${slug}/products`, { ...base, base_price: price });
      expect(bad.status, String(price)).toBe(400);
      expect(bad.body.error).toMatchObject({ code: 'parameter_invalid', param: 'base_price' });
    }
    const room = await scene.acct.api.post(`/v1/services/industries/${slug}/products`, { ...base, room: 'visit' });
    expect(room.body.error).toMatchObject({ code: 'parameter_unknown', param: 'room' });
    const missing = await scene.acct.api.post(`/v1/services/industries/${slug}/products`, { name: 'Desk' });
    expect(missing.body.error.code).toBe('missing_required_field');

    const desk = await scene.acct.api.post(`/v1/services/industries/${slug}/products`, base);
    const twice = await scene.acct.api.post(`/v1/services/industries/${slug}/products`, { ...base, slug: 'desk' });
    expect(twice.status).toBe(409);
    expect(twice.body.error).toMatchObject({ code: 'resource_already_exists', param: 'slug' });
    const moved = await scene.acct.api.patch(`/v1/services/products/${desk.body.id}`, {
      category_id: other.categoryId,
    });
    expect(moved.body.error).toMatchObject({ code: 'resource_not_found', param: 'category_id' });
    expect((await scene.acct.api.post('/v1/services/industries/nope/products', base)).status).toBe(404);
  });

  it('refuses to archive the room products of a room_based industry', async () => {
    const products = await scene.acct.api.get('/v1/services/industries/residential-cleaning/products');
    for (const product of products.body.categories[0].products) {
      const res = await scene.acct.api.delete(`/v1/services/products/${product.id}`);
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe('resource_in_use');
    }
  });

  it('keeps a booking’s price, and the booking readable, after its product changes and is archived', async () => {
    const sofaId = scene.catalog.products['junk-removal']!.Sofa!;
    const created = await sofaPickup(scene.acct.api, '2026-06-03');
    const before = created.pricing;

    expect((await scene.acct.api.patch(`/v1/services/products/${sofaId}`, { base_price: 19900 })).status).toBe(200);
    const quote = await scene.acct.api.post('/v1/services/pricing', {
      industry: 'junk-removal',
      configuration: scene.sofa(),
    });
    expect(quote.body.base_price).toBe(19900);
    expect((await scene.acct.api.delete(`/v1/services/products/${sofaId}`)).status).toBe(204);

    const read = await scene.acct.api.get(`/v1/bookings/${created.id}`);
    expect(read.status, JSON.stringify(read.body)).toBe(200);
    expect(read.body.pricing).toEqual(before);
    expect(read.body.service.configuration.items[0].product_id).toBe(sofaId);
    const listed = await scene.acct.api.get(`/v1/bookings?ids=${created.id}`);
    expect(listed.body.data[0].pricing).toEqual(before);
  });
});

describe('extras', () => {
  it('creates, reads, patches and archives; per_unit needs a unit_label', async () => {
    const { slug } = await itemIndustry();
    const noLabel = await scene.acct.api.post(`/v1/services/industries/${slug}/extras`, {
      name: 'Stairs',
      price: 1000,
      price_type: 'per_unit',
    });
    expect(noLabel.status).toBe(400);
    expect(noLabel.body.error).toMatchObject({ code: 'parameter_invalid', param: 'unit_label' });

    const created = await scene.acct.api.post(`/v1/services/industries/${slug}/extras`, {
      name: 'Stairs',
      price: 1000,
      price_type: 'per_unit',
      unit_label: 'flight',
      minutes: 5,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^extra_/),
      name: 'Stairs',
      description: '',
      price: 1000,
      price_type: 'per_unit',
      unit_label: 'flight',
      slug: 'stairs',
      minutes: 5,
      position: 0,
    });
    const id = created.body.id as string;
    expect((await scene.acct.api.get(`/v1/services/extras/${id}`)).body).toEqual(created.body);
    const cleared = await scene.acct.api.patch(`/v1/services/extras/${id}`, { unit_label: null });
    expect(cleared.body.error).toMatchObject({ code: 'parameter_invalid', param: 'unit_label' });
    const flat = await scene.acct.api.patch(`/v1/services/extras/${id}`, {
      price_type: 'flat',
      unit_label: null,
      price: 2500,
    });
    expect(flat.body).toMatchObject({ price_type: 'flat', unit_label: null, price: 2500 });
    const listed = await scene.acct.api.get(`/v1/services/industries/${slug}/extras`);
    expect(listed.body.data.map((e: { id: string }) => e.id)).toEqual([id]);

    const duplicate = await scene.acct.api.post(`/v1/services/industries/${slug}/extras`, {
      name: 'Stairs again',
      slug: 'stairs',
      price: 1,
      price_type: 'flat',
    });
    expect(duplicate.status).toBe(409);

    expect((await scene.acct.api.delete(`/v1/services/extras/${id}`)).status).toBe(204);
    expect((await scene.acct.api.get(`/v1/services/extras/${id}`)).status).toBe(404);
    expect((await scene.acct.api.get(`/v1/services/industries/${slug}/extras`)).body.data).toEqual([]);
  });
});

describe('isolation', () => {
  it('answers 404 for ids of another account or the other environment, and lists never show them', async () => {
    const { slug, categoryId } = await itemIndustry();
    const product = await scene.acct.api.post(`/v1/services/industries/${slug}/products`, {
      category_id: categoryId,
      name: 'Bed',
      base_price: 100,
      minutes: 1,
    });
    const extra = await scene.acct.api.post(`/v1/services/industries/${slug}/extras`, {
      name: 'Wrap',
      price: 100,
      price_type: 'flat',
    });
    const other = await createTestAccount(scene.t);
    for (const client of [other.api, scene.acct.live]) {
      for (const path of [`/v1/services/products/${product.body.id}`, `/v1/services/extras/${extra.body.id}`]) {
        expect((await client.get(path)).status, path).toBe(404);
        expect((await client.patch(path, { name: 'Mine' })).status, path).toBe(404);
        expect((await client.delete(path)).status, path).toBe(404);
      }
      const category = `/v1/services/categories/${categoryId}`;
      expect((await client.patch(category, { name: 'Mine' })).status).toBe(404);
      expect((await client.delete(category)).status).toBe(404);
      expect((await client.patch(`/v1/services/industries/${slug}`, { name: 'Mine' })).status).toBe(404);
      expect((await client.post(`/v1/services/industries/${slug}/categories`, { name: 'Mine' })).status).toBe(404);
      const all = await client.get('/v1/services/industries?include_inactive=true');
      expect(all.body.data.map((i: { slug: string }) => i.slug)).not.toContain(slug);
    }
    // nothing changed
    expect((await scene.acct.api.get(`/v1/services/products/${product.body.id}`)).body.name).toBe('Bed');
  });
});

describe('the catalog file', () => {
  it('exports what the API set up, and importing that file again changes nothing', async () => {
    const { slug, categoryId } = await itemIndustry();
    await scene.acct.api.post(`/v1/services/industries/${slug}/products`, {
      category_id: categoryId,
      name: 'Crate',
      base_price: 700,
      minutes: 5,
    });
    await scene.acct.api.post(`/v1/services/industries/${slug}/products`, {
      category_id: categoryId,
      name: 'Box',
      base_price: 300,
      minutes: 2,
      position: 0,
    });
    const tenant = scene.acct.tenant();
    const before = await exportCatalog(scene.t.app.deps, tenant);
    const industry = before.industries.find((i) => i.slug === slug)!;
    expect(industry.categories[0]!.products.map((p) => p.name)).toEqual(['Box', 'Crate']);
    await importCatalog(scene.t.app.deps, tenant, JSON.stringify(before));
    expect(await exportCatalog(scene.t.app.deps, tenant)).toEqual(before);
    const products = await scene.acct.api.get(`/v1/services/industries/${slug}/products`);
    expect(products.body.categories[0].products.map((p: { name: string }) => p.name)).toEqual(['Box', 'Crate']);
    // the import numbers products across the catalog; the API still counts places within the list
    const crate = products.body.categories[0].products[1].id;
    expect((await scene.acct.api.get(`/v1/services/products/${crate}`)).body.position).toBe(1);
    const up = await scene.acct.api.patch(`/v1/services/products/${crate}`, { position: 0 });
    expect(up.body.position).toBe(0);
  });
});

describe('concurrency', () => {
  it('gives racing writers on two servers distinct slugs and places, and one industry per slug', async () => {
    const second = await startTestApp({ database: scene.t.database, clock: scene.clock, workers: false });
    try {
      const apis = [scene.acct.api, apiClient(second.url, scene.acct.testKey)];
      const { slug, categoryId } = await itemIndustry();
      const created = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          apis[i % 2]!.post(`/v1/services/industries/${slug}/products`, {
            category_id: categoryId,
            name: 'Chair',
            base_price: 1000,
            minutes: 5,
          }),
        ),
      );
      expect(created.map((res) => res.status)).toEqual(Array(10).fill(201));
      expect(new Set(created.map((res) => res.body.slug)).size).toBe(10);
      const listed = await scene.acct.api.get(`/v1/services/industries/${slug}/products`);
      const places = await Promise.all(
        listed.body.categories[0].products.map(
          async (p: { id: string }) => (await scene.acct.api.get(`/v1/services/products/${p.id}`)).body.position,
        ),
      );
      expect(places).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);

      const industries = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          apis[i % 2]!.post('/v1/services/industries', {
            name: 'Racing',
            slug: `racing-${counter}`,
            configuration_type: 'item_based',
          }),
        ),
      );
      expect(industries.map((res) => res.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    } finally {
      await second.close();
    }
  });
});
