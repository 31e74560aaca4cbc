// Every event type of the catalog, caused by its real operation over HTTP, delivered to an
// endpoint and verified with the standardwebhooks package; data.object is the resource as the
// API returned it where the operation returns that resource.
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../src/core/clock.ts';
import { EVENT_TYPES } from '../src/modules/events/index.ts';
import { markOverdueInvoices } from '../src/modules/invoices/index.ts';
import { createTestAccount, startTestApp, type TestAccount, type TestApp } from './helpers/app.ts';
import { addCard, CARDS } from './helpers/billing.ts';
import { book, demoCatalog, slotAt, sofa } from './helpers/bookings.ts';
import { type Receiver, startReceiver } from './helpers/webhooks.ts';

// Monday 2026-06-01, 08:00 in New York
const clock = new ManualClock('2026-06-01T12:00:00Z');
let t: TestApp;
let acct: TestAccount;
let receiver: Receiver;

beforeAll(async () => {
  t = await startTestApp({ clock, workers: false });
  acct = await createTestAccount(t, { demo: true });
  receiver = await startReceiver();
});
afterAll(async () => {
  await t.close();
  await receiver.close();
});

interface Delivered {
  type: string;
  test: boolean;
  environment: string;
  data: { object: { id: string } & Record<string, unknown> };
}

describe('events from their operations', () => {
  it('delivers each event type after the operation that causes it, signed per Standard Webhooks', async () => {
    const endpoint = await acct.api.post('/v1/webhooks', { url: `${receiver.url}/all`, events: ['*'] });
    expect(endpoint.status).toBe(201);
    const secret = endpoint.body.secret as string;
    /** What each operation returned, keyed by event type: the event must carry exactly that. */
    const expected = new Map<string, unknown>();
    const ok = <T extends { status: number; body: unknown }>(res: T, status = 200): T => {
      expect(res.status, JSON.stringify(res.body)).toBe(status);
      return res;
    };

    // customers
    const customer = ok(
      await acct.api.post('/v1/customers', {
        first_name: 'Eve',
        last_name: 'Events',
        email: 'eve.events@example.com',
        address: { street: '1 Main St', city: 'New York', state: 'NY', zip: '10001' },
      }),
      201,
    ).body;
    expected.set('customer.created', customer);
    expected.set(
      'customer.updated',
      ok(await acct.api.patch(`/v1/customers/${customer.id}`, { phone: '+12125550199' })).body,
    );
    ok(await addCard(acct.api, customer.id, CARDS.visa), 201);

    // bookings: create, update, reschedule, start, complete (which bills and charges), cancel
    const catalog = await demoCatalog(acct.api);
    /** A sofa pickup for the customer at 10:00 on `date`. */
    const bookSofa = async (date: string) =>
      ok(
        await book(acct.api, {
          customer_id: customer.id,
          address_id: customer.addresses[0].id,
          industry: 'junk-removal',
          configuration: sofa(catalog),
          scheduled_at: await slotAt(acct.api, 'junk-removal', date, '10:00', 20),
        }),
        201,
      ).body;
    const booking = await bookSofa('2026-06-03');
    expected.set('booking.created', booking);
    expected.set(
      'booking.updated',
      ok(await acct.api.patch(`/v1/bookings/${booking.id}`, { notes: 'Gate code 1234' })).body,
    );
    const later = await slotAt(acct.api, 'junk-removal', '2026-06-03', '13:00', 20);
    expected.set(
      'booking.rescheduled',
      ok(await acct.api.patch(`/v1/bookings/${booking.id}`, { scheduled_at: later })).body,
    );
    expected.set('booking.started', ok(await acct.api.post(`/v1/bookings/${booking.id}/start`)).body);
    expected.set('booking.completed', ok(await acct.api.post(`/v1/bookings/${booking.id}/complete`)).body);
    const other = await bookSofa('2026-06-04');
    expected.set(
      'booking.cancelled',
      ok(await acct.api.post(`/v1/bookings/${other.id}/cancel`, { reason: 'Moved away', notify_customer: false })).body,
    );

    // invoices and payments: finalize, a declined charge, a refund, void, overdue
    const draft = ok(
      await acct.api.post('/v1/invoices', {
        customer_id: customer.id,
        line_items: [{ description: 'Haul-away', quantity: 1, unit_price: 9000 }],
        draft: true,
      }),
      201,
    ).body;
    expected.set('invoice.finalized', ok(await acct.api.post(`/v1/invoices/${draft.id}/finalize`)).body);
    const declinedCard = ok(await addCard(acct.api, customer.id, CARDS.declined), 201).body;
    const declined = await acct.api.post(`/v1/invoices/${draft.id}/pay`, { payment_method_id: declinedCard.id });
    expect(declined.status).toBe(402);
    ok(await acct.api.post(`/v1/invoices/${draft.id}/refund`, {}), 409);
    const refund = ok(await acct.api.post(`/v1/invoices/${draft.id}/pay`, {}));
    expect(refund.body.status).toBe('paid');
    ok(await acct.api.post(`/v1/invoices/${draft.id}/refund`, { amount: 1000, reason: 'Late' }), 201);
    const toVoid = ok(
      await acct.api.post('/v1/invoices', {
        customer_id: customer.id,
        line_items: [{ description: 'Estimate visit', quantity: 1, unit_price: 2500 }],
        due_date: '2026-06-10',
      }),
      201,
    ).body;
    expected.set(
      'invoice.voided',
      ok(await acct.api.post(`/v1/invoices/${toVoid.id}/void`, { reason: 'Duplicate' })).body,
    );
    ok(
      await acct.api.post('/v1/invoices', {
        customer_id: customer.id,
        line_items: [{ description: 'Old balance', quantity: 1, unit_price: 4000 }],
        due_date: '2026-05-01',
      }),
      201,
    );
    // what the overdue loop runs every minute: past due since May, this invoice is announced
    await markOverdueInvoices(t.app.deps, { accountId: acct.accountId });

    expected.set('customer.deactivated', ok(await acct.api.post(`/v1/customers/${customer.id}/deactivate`)).body);

    await t.app.workers.deliveries.runOnce();
    const arrived = receiver.received.filter((r) => r.path === '/all');
    expect(new Set(arrived.map((r) => r.json.type))).toEqual(new Set(EVENT_TYPES));
    // the verifier checks webhook-timestamp against its own clock: give it the server's
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(clock.now());
    try {
      for (const request of arrived) {
        const verified = new Webhook(secret).verify(request.body, request.headers) as Delivered;
        expect(verified).toMatchObject({ type: request.json.type, test: false, environment: 'test' });
        expect(request.headers['webhook-id']).toBe(request.json.id);
      }
    } finally {
      vi.useRealTimers();
    }
    for (const [type, object] of expected) {
      const events = arrived.filter((r) => r.json.type === type).map((r) => r.json as Delivered);
      const match = events.find((event) => event.data.object.id === (object as { id: string }).id);
      expect(match, `${type} for ${(object as { id: string }).id}`).toBeDefined();
      expect(JSON.stringify(match?.data.object), type).toBe(JSON.stringify(object));
    }
    // the events without a single response to compare carry their resources
    const byType = (type: string) => arrived.filter((r) => r.json.type === type).map((r) => r.json as Delivered);
    expect(byType('payment.failed')[0]?.data.object).toMatchObject({ status: 'failed', invoice_id: draft.id });
    expect(byType('payment.refunded')[0]?.data.object).toMatchObject({ object: 'refund', amount: 1000 });
    expect(byType('invoice.paid').map((e) => e.data.object.id)).toContain(draft.id);
    expect(byType('payment.succeeded').length).toBeGreaterThanOrEqual(2);
    expect(byType('invoice.overdue')[0]?.data.object).toMatchObject({ status: 'overdue' });
  });
});
