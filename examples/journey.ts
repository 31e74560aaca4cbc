// A whole job through @fieldhand/client, as an integrator would write it: find a slot, price it,
// add the customer and a test card, book, do the job, see the invoice it charged, refund it, and
// read the events that told the webhooks. Run against a server with a test key of an account that
// has the demo catalog (the first start's demo account has it):
//
//   FIELDHAND_URL=http://localhost:3000 FIELDHAND_API_KEY=svc_test_sk_… npx tsx examples/journey.ts
//
// Prints each step; exits non-zero on the first failure. The test suite runs `runJourney`
// (test/client-journey.test.ts) against a started server.
import { pathToFileURL } from 'node:url';
import { createFieldhandClient, type FieldhandClient } from '../clients/typescript/src/index.ts';

/** The ids the journey made, and the events it read back, for whoever runs it. */
export interface JourneyResult {
  scheduledAt: string;
  quoteTotal: number;
  customerId: string;
  paymentMethodId: string;
  bookingId: string;
  invoiceId: string;
  refundId: string;
  eventTypes: string[];
}

const INDUSTRY = 'junk-removal';
const ZIP = '10001'; // Manhattan: a zone of the demo catalog

/** Fails the journey with the API's own error (code and message) when a call did not succeed. */
function ok<T>(step: string, result: { data?: T; error?: unknown; response: Response }): T {
  if (result.data === undefined) {
    throw new Error(`${step}: HTTP ${result.response.status} ${JSON.stringify(result.error)}`);
  }
  return result.data;
}

export async function runJourney(
  client: FieldhandClient,
  log: (line: string) => void = (line) => console.log(line),
): Promise<JourneyResult> {
  const products = ok(
    'products',
    await client.GET('/v1/services/industries/{slug}/products', { params: { path: { slug: INDUSTRY } } }),
  );
  const sofa = products.categories.flatMap((category) => category.products).find((p) => p.name === 'Sofa');
  if (!sofa) throw new Error('products: the demo catalog has no Sofa (is this a demo account?)');
  const configuration = { items: [{ product_id: sofa.id, quantity: 1 }], frequency: 'one-time' as const };

  // 1. Price first: the quote's duration is what availability needs to find a long enough slot.
  const quote = ok(
    'price',
    await client.POST('/v1/services/pricing', { body: { industry: INDUSTRY, zip: ZIP, configuration } }),
  );
  log(`price: ${quote.total} cents, ${quote.estimated_duration} minutes`);

  // 2. The first free slot from tomorrow on (the zone's schedule has days off).
  let scheduledAt: string | undefined;
  for (let day = 1; day <= 14 && !scheduledAt; day += 1) {
    const date = new Date(Date.now() + day * 86_400_000).toISOString().slice(0, 10);
    const availability = ok(
      'availability',
      await client.GET('/v1/services/availability', {
        params: { query: { zip: ZIP, industry: INDUSTRY, date, duration: quote.estimated_duration } },
      }),
    );
    scheduledAt = availability.available_slots[0]?.starts_at;
  }
  if (!scheduledAt) throw new Error('availability: no free slot in the next two weeks');
  log(`availability: first slot ${scheduledAt}`);

  const customer = ok(
    'customer',
    await client.POST('/v1/customers', {
      body: {
        first_name: 'Jo',
        last_name: 'Journey',
        email: `jo.journey+${Date.now()}@example.com`,
        address: { street: '1 Main St', city: 'New York', state: 'NY', zip: ZIP },
      },
    }),
  );
  const addressId = customer.addresses[0]?.id;
  if (!addressId) throw new Error('customer: created without its address');
  log(`customer: ${customer.id}`);

  // A test card that succeeds; the first card becomes the customer's default, which the
  // completed booking's invoice is charged to.
  const card = ok(
    'card',
    await client.POST('/v1/customers/{id}/payment_methods', {
      params: { path: { id: customer.id } },
      body: { card: { number: '4242424242424242', exp_month: 12, exp_year: 2040, cvc: '123' } },
    }),
  );
  log(`card: ${card.id}`);

  const booking = ok(
    'booking',
    await client.POST('/v1/bookings', {
      body: {
        customer_id: customer.id,
        address_id: addressId,
        industry: INDUSTRY,
        configuration,
        scheduled_at: scheduledAt,
      },
    }),
  );
  log(`booking: ${booking.id} ${booking.status}`);

  const path = { params: { path: { id: booking.id } } };
  ok('start', await client.POST('/v1/bookings/{id}/start', path));
  const completed = ok('complete', await client.POST('/v1/bookings/{id}/complete', { ...path, body: {} }));
  log(`complete: ${completed.status}`);

  // Completing issues the booking's invoice and charges the default card.
  const issued = completed.invoices[0];
  if (!issued) throw new Error('invoice: the completed booking has none');
  const invoice = ok('invoice', await client.GET('/v1/invoices/{id}', { params: { path: { id: issued.id } } }));
  if (invoice.status !== 'paid') throw new Error(`invoice: ${invoice.status}, not paid`);
  log(`invoice: ${invoice.number} ${invoice.status} ${invoice.amount_paid} cents`);

  const refund = ok(
    'refund',
    await client.POST('/v1/invoices/{id}/refund', {
      params: { path: { id: invoice.id } },
      body: { reason: 'Journey example' },
    }),
  );
  log(`refund: ${refund.id} ${refund.amount} cents`);

  // The events webhooks were sent, newest first per type: the booking's, its invoice's, and the
  // invoice's payments' (charge and refund), from just before the customer was made (strict).
  const since = new Date(Date.parse(customer.created_at) - 1).toISOString();
  const eventTypes: string[] = [];
  for (const type of ['booking.*', 'invoice.*', 'payment.*']) {
    const events = ok(
      'events',
      await client.GET('/v1/events', { params: { query: { type, created_after: since, per_page: 100 } } }),
    );
    const ours = events.data.filter((event) => {
      const object = event.data.object as { id: string; invoice_id?: string };
      return object.id === booking.id || object.id === invoice.id || object.invoice_id === invoice.id;
    });
    eventTypes.push(...ours.map((event) => event.type).reverse());
  }
  log(`events: ${eventTypes.join(', ')}`);

  return {
    scheduledAt,
    quoteTotal: quote.total,
    customerId: customer.id,
    paymentMethodId: card.id,
    bookingId: booking.id,
    invoiceId: invoice.id,
    refundId: refund.id,
    eventTypes,
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const baseUrl = process.env.FIELDHAND_URL;
  const apiKey = process.env.FIELDHAND_API_KEY;
  if (!baseUrl || !apiKey) {
    console.error('Set FIELDHAND_URL and FIELDHAND_API_KEY (a test key of an account with the demo catalog).');
    process.exit(2);
  }
  try {
    await runJourney(createFieldhandClient({ baseUrl, apiKey }));
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}
