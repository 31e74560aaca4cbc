// The dashboard's Bookings pages over HTTP: the list scoped to the account and environment on
// screen, its status and date filters and the customer link, the detail view (timeline, crew,
// pricing, invoices, cancellation), foreign ids answering 404, and escaping.
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestAccount, type TestAccount } from './helpers/app.ts';
import { addCard } from './helpers/billing.ts';
import { customerWithAddress, mondayInNewYork, sofaPickup } from './helpers/bookings.ts';
import { csrfFrom, ESCAPED, formClient, HOSTILE, signedInClient } from './helpers/forms.ts';

const BOOKINGS = '/dashboard/bookings';
const scene = mondayInNewYork();
const { clock } = scene;
let other: TestAccount;
beforeAll(async () => {
  other = await createTestAccount(scene.t, { demo: true });
});

const signedIn = (account: TestAccount) => signedInClient(scene.t.url, account);

describe('bookings list', () => {
  it('shows the bookings of its own account and of the environment on screen only', async () => {
    const mine = await sofaPickup(scene.acct.api, '2026-06-03');
    const theirs = await sofaPickup(other.api, '2026-06-03');
    const live = await sofaPickup(scene.acct.live, '2026-06-03');
    const browser = await signedIn(scene.acct);
    const list = await browser.get(BOOKINGS);
    expect(list.status).toBe(200);
    expect(list.text).toContain(`href="${BOOKINGS}/${mine.id}"`);
    expect(list.text).toContain(mine.customer.name);
    expect(list.text).toContain(mine.crew[0]!.name);
    expect(list.text).toContain('Junk removal');
    expect(list.text).toContain('>Jun 3, 2026, 10:00 EDT</time>');
    expect(list.text).not.toContain(theirs.id);
    expect(list.text).not.toContain(theirs.customer.name);
    expect(list.text).not.toContain(live.id);
    expect(list.text).not.toContain(live.customer.name);
    // the navigation entry is live, no longer a stub
    expect(list.text).not.toContain('class="soon"');
    expect(list.text).toContain(`<a href="${BOOKINGS}" aria-current="page">Bookings</a>`);

    // switched to live, the live booking shows and the test one does not
    await browser.post('/dashboard/environment', { _csrf: csrfFrom(list.text), environment: 'live', next: BOOKINGS });
    const liveList = await browser.get(BOOKINGS);
    expect(liveList.text).toContain(live.id);
    expect(liveList.text).not.toContain(mine.id);
  });

  it('filters by status and by scheduled date, and keeps the filters in its controls', async () => {
    const early = await sofaPickup(scene.acct.api, '2026-06-08', { time: '09:00' });
    const late = await sofaPickup(scene.acct.api, '2026-06-10', { time: '09:00' });
    const cancelled = await sofaPickup(scene.acct.api, '2026-06-09', { time: '09:00' });
    clock.advance(1000);
    expect((await scene.acct.api.post(`/v1/bookings/${cancelled.id}/cancel`, { reason: 'Moving away' })).status).toBe(
      200,
    );
    const browser = await signedIn(scene.acct);

    const onlyCancelled = await browser.get(`${BOOKINGS}?status=cancelled`);
    expect(onlyCancelled.text).toContain(cancelled.id);
    expect(onlyCancelled.text).not.toContain(early.id);
    expect(onlyCancelled.text).toContain('<option value="cancelled" selected>');
    const onlyConfirmed = await browser.get(`${BOOKINGS}?status=confirmed&date_from=2026-06-08&date_to=2026-06-10`);
    expect(onlyConfirmed.text).toContain(early.id);
    expect(onlyConfirmed.text).toContain(late.id);
    expect(onlyConfirmed.text).not.toContain(cancelled.id);

    // date_to is a whole day (UTC), as in the API
    const window = await browser.get(`${BOOKINGS}?date_from=2026-06-09&date_to=2026-06-10`);
    expect(window.text).toContain(late.id);
    expect(window.text).toContain(cancelled.id);
    expect(window.text).not.toContain(early.id);
    expect(window.text).toContain('id="date_from" name="date_from" type="date" value="2026-06-09"');
    expect(window.text).toContain('2 bookings');
    const before = await browser.get(`${BOOKINGS}?date_to=2026-06-08`);
    expect(before.text).toContain(early.id);
    expect(before.text).not.toContain(late.id);

    // labelled controls
    for (const id of ['status', 'date_from', 'date_to', 'sort']) expect(window.text).toContain(`<label for="${id}">`);
    // nonsense filters are ignored rather than failing the page
    expect((await browser.get(`${BOOKINGS}?status=lost&date_from=2026-13-45&page=-3`)).status).toBe(200);
  });

  it("lists one customer's bookings, linked from the customer's page", async () => {
    const booking = await sofaPickup(scene.acct.api, '2026-06-11');
    const another = await sofaPickup(scene.acct.api, '2026-06-11', { time: '11:00' });
    const browser = await signedIn(scene.acct);
    const customerPage = await browser.get(`/dashboard/customers/${booking.customer.id}`);
    const link = `${BOOKINGS}?customer_id=${booking.customer.id}`;
    expect(customerPage.text).toContain(`href="${link}"`);
    const list = await browser.get(link);
    expect(list.status).toBe(200);
    expect(list.text).toContain(`Bookings of ${booking.customer.name}`);
    expect(list.text).toContain(booking.id);
    expect(list.text).not.toContain(another.id);
    expect((await browser.get(`${BOOKINGS}?customer_id=${(await customerWithAddress(other.api)).id}`)).status).toBe(
      404,
    );
  });

  it('pages through the list', async () => {
    const browser = await signedIn(scene.acct);
    const first = await browser.get(`${BOOKINGS}?sort=scheduled_at`);
    const total = Number(/(\d+) bookings? · page 1 of (\d+)/.exec(first.text)?.[1]);
    expect(total).toBeGreaterThan(0);
    const beyond = await browser.get(`${BOOKINGS}?page=99`);
    expect(beyond.status).toBe(200);
    expect(beyond.text).toContain('No bookings found');
  });
});

describe('booking detail', () => {
  it('shows the timeline, crew, address, configuration, pricing and invoices', async () => {
    const customer = await scene.customer();
    await addCard(scene.acct.api, customer.id);
    const created = await scene.book({
      customer_id: customer.id,
      address_id: customer.addressId,
      industry: 'junk-removal',
      configuration: scene.sofa('weekly'),
      scheduled_at: await scene.slotAt('junk-removal', '2026-06-12', '10:00', 20),
      coupon_code: 'WELCOME10',
      notes: 'Gate code 1234',
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id as string;
    clock.advance(1000);
    expect((await scene.acct.api.post(`/v1/bookings/${id}/start`)).status).toBe(200);
    clock.advance(1000);
    const completed = await scene.acct.api.post(`/v1/bookings/${id}/complete`, {});
    expect(completed.status).toBe(200);
    const booking = completed.body;

    const browser = await signedIn(scene.acct);
    const page = await browser.get(`${BOOKINGS}/${id}`);
    expect(page.status).toBe(200);
    const text = page.text;
    // timeline: three steps with their notes
    const timeline = /<ol class="timeline">([\s\S]*?)<\/ol>/.exec(text)?.[1] ?? '';
    expect(timeline.match(/<li>/g)).toHaveLength(3);
    for (const entry of booking.timeline as { note: string }[]) expect(timeline).toContain(entry.note);
    expect(timeline).toContain('in progress');
    // times in the zone's local time, the time zone named: 10:00 in Manhattan is 14:00 UTC
    expect(text).toContain('>Jun 12, 2026, 10:00 EDT</time>');
    expect(text).toContain('Times in America/New_York');
    expect(text).not.toContain('14:00 UTC');
    // crew by name, the address, the configuration with the product's name
    expect(text).toContain(booking.crew[0].name);
    expect(text).toContain(booking.address.street);
    expect(text).toContain('1 × Sofa');
    expect(text).toContain('weekly');
    expect(text).toContain('Gate code 1234');
    expect(text).toContain(booking.subscription.id);
    // pricing breakdown: each line and the total, as the API priced it
    const money = (cents: number) =>
      new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(cents / 100);
    expect(text).toContain('<table class="pricing">');
    expect(text).toContain(money(booking.pricing.base_price));
    expect(text).toContain(money(booking.pricing.total));
    for (const discount of booking.pricing.discounts as { amount: number; description: string }[]) {
      expect(text).toContain(money(-discount.amount));
    }
    expect(text).toContain('Coupon WELCOME10');
    // the invoice, linked to its dashboard page
    expect(booking.invoices).toHaveLength(1);
    expect(text).toContain(`href="/dashboard/invoices/${booking.invoices[0].id}"`);
    expect(text).toContain(booking.invoices[0].number);
    expect((await browser.get(`/dashboard/invoices/${booking.invoices[0].id}`)).status).toBe(200);
    expect(text).not.toContain('id="cancellation-title"');
  });

  it('shows the cancellation of a cancelled booking', async () => {
    const booking = await sofaPickup(scene.acct.api, '2026-06-15');
    clock.advance(1000);
    const cancelled = await scene.acct.api.post(`/v1/bookings/${booking.id}/cancel`, {
      reason: 'Found another company',
    });
    expect(cancelled.status).toBe(200);
    const browser = await signedIn(scene.acct);
    const page = await browser.get(`${BOOKINGS}/${booking.id}`);
    expect(page.text).toContain('id="cancellation-title"');
    expect(page.text).toContain('Found another company');
    expect(page.text).toContain('Free cancellation');
  });

  it('answers 404 for a booking of another account, of the other environment, or none', async () => {
    const theirs = await sofaPickup(other.api, '2026-06-16');
    const live = await sofaPickup(scene.acct.live, '2026-06-16');
    const browser = await signedIn(scene.acct);
    for (const id of [theirs.id, live.id, 'bk_000000000000000000000000', 'nonsense']) {
      const page = await browser.get(`${BOOKINGS}/${id}`);
      expect(page.status).toBe(404);
      expect(page.text).toContain('There is no such booking.');
      expect(page.text).not.toContain(theirs.customer.name);
    }
  });

  it('sends visitors without a session to the login page', async () => {
    const browser = formClient(scene.t.url, { 'x-forwarded-for': '10.7.1.1' });
    for (const path of [BOOKINGS, `${BOOKINGS}/bk_000000000000000000000000`]) {
      const res = await browser.get(path);
      expect(res.status).toBe(303);
      expect(res.location).toBe(`/dashboard/login?next=${encodeURIComponent(path)}`);
    }
  });
});

describe('escaping', () => {
  it("escapes customers' names, addresses and booking notes", async () => {
    const customer = await scene.acct.api.post('/v1/customers', {
      first_name: HOSTILE,
      last_name: '"Quote\'',
      email: `hostile-${Date.now()}@example.com`,
      address: { street: '<b>1</b> Main', city: 'New York', state: 'NY', zip: '10001' },
    });
    expect(customer.status).toBe(201);
    const created = await scene.book({
      customer_id: customer.body.id,
      address_id: customer.body.addresses[0].id,
      industry: 'junk-removal',
      configuration: scene.sofa(),
      scheduled_at: await scene.slotAt('junk-removal', '2026-06-17', '10:00', 20),
      notes: '</div><script>alert(1)</script>',
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const browser = await signedIn(scene.acct);
    for (const path of [
      BOOKINGS,
      `${BOOKINGS}/${created.body.id}`,
      `${BOOKINGS}?customer_id=${customer.body.id}`,
      `${BOOKINGS}?customer_id=${encodeURIComponent('"><script>alert(1)</script>')}`,
    ]) {
      const page = await browser.get(path);
      expect(page.text).not.toContain('<img src=x');
      expect(page.text).not.toContain('<script>alert');
      expect(page.text).not.toContain('<b>1</b>');
    }
    const detail = await browser.get(`${BOOKINGS}/${created.body.id}`);
    expect(detail.text).toContain(ESCAPED);
    expect(detail.text).toContain('&lt;/div&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(detail.text).toContain('&lt;b&gt;1&lt;/b&gt; Main');
  });
});
