// The ways an invoice comes to be: POST /v1/invoices, a booking's completion and a
// cancellation fee. The last two run inside the bookings module's transaction: they take deps
// bound to it.
import { addDays, utcDay } from '../../core/dates.ts';
import { allInOrder } from '../../core/db.ts';
import { type Deps, inTransaction } from '../../core/deps.ts';
import { found, invalidParameter, notFound } from '../../core/errors.ts';
import { newId, randomBase62 } from '../../core/ids.ts';
import { type Metadata, mergeMetadata } from '../../core/metadata.ts';
import { processorFor } from '../../core/payments.ts';
import type { Tenant } from '../../core/tenant.ts';
import { businessProfile } from '../catalog/index.ts';
import { customerBalancesWrite } from '../customers/index.ts';
import { type CardOnFile, cardToCharge, chargeToRecord, requireProcessor } from '../payments/index.ts';
import { queueInvoiceEmail } from './invoice-email.ts';
import * as repository from './invoices.repository.ts';
import type { InvoiceView, NewInvoiceBody } from './invoices.schemas.ts';
import { invoiceView } from './invoices.views.ts';
import { invoiceTotals, type LineItem, type LineItemInput, taxOn, taxRateUnits } from './totals.ts';

const DUE_IN_DAYS = 14;

function defaultDueDate(now: Date): string {
  return addDays(utcDay(now), DUE_IN_DAYS);
}

/** What an invoice bills; totals are given, so a booking's invoice equals its pricing exactly. */
interface InvoiceSpec {
  customerId: string;
  bookingId: string | null;
  lineItems: LineItem[];
  subtotal: number;
  discount: number;
  discountDescription: string | null;
  taxRate: number;
  tax: number;
  total: number;
  dueDate: string;
  draft: boolean;
  sendEmail: boolean;
  metadata: Metadata;
  /** required: the default card must be charged (400 without one); if_card_on_file: when there is one. */
  charge: 'none' | 'required' | 'if_card_on_file';
  /** Nothing follows in the caller's transaction: COMMIT may go out right behind the invoice's statement. */
  endsTransaction?: boolean;
}

export interface IssuedInvoice {
  invoice: InvoiceView;
  /** Set when the charge was attempted and failed; the invoice stays pending with the failure. */
  declined: { code: string; message: string } | null;
}

/**
 * Creates an invoice in the caller's transaction (deps bound to it), numbers it unless draft,
 * and charges it if asked.
 */
async function issueInvoice(deps: Deps, tenant: Tenant, spec: InvoiceSpec): Promise<IssuedInvoice> {
  const now = deps.clock.now();
  const at = now.toISOString();
  const charging = spec.charge !== 'none' && !spec.draft && spec.total > 0;
  // Three reads sent together, one round trip on a pipelining connection. They run in this
  // order, so the customer is locked first; the invoice number is the last lock taken.
  const [partyRow, business, cardOnFile] = await allInOrder([
    repository.findInvoiceParty(deps.db, tenant, spec.customerId, { lock: charging ? 'money' : 'reference' }),
    businessProfile(deps, tenant),
    charging ? defaultCard(deps, tenant, spec.customerId) : Promise.resolve(undefined),
  ]);
  const party = found(partyRow, 'customer', spec.customerId, 'customer_id');
  const card = charging ? requireCard(deps, tenant, spec, cardOnFile) : undefined;
  // Nothing follows in the caller's transaction: COMMIT goes out right behind the last statement.
  const last = spec.endsTransaction === true && !spec.sendEmail;

  const draft: repository.InvoiceRow = {
    id: newId('invoice'),
    number: null,
    status: 'draft',
    customer_id: spec.customerId,
    customer_first_name: party.first_name,
    customer_last_name: party.last_name,
    customer_email: party.email,
    booking_id: spec.bookingId,
    currency: business.currency,
    line_items: spec.lineItems,
    subtotal: spec.subtotal,
    discount: spec.discount,
    discount_description: spec.discountDescription,
    tax_rate: spec.taxRate,
    tax: spec.tax,
    total: spec.total,
    amount_paid: 0,
    amount_refunded: 0,
    due_date: spec.dueDate,
    send_email: spec.sendEmail,
    issued_at: null,
    paid_at: null,
    voided_at: null,
    void_reason: null,
    payment_method: null,
    last_payment_error: null,
    metadata: spec.metadata,
    created_at: at,
    updated_at: at,
  };
  if (spec.draft) {
    const invoice = invoiceView(draft, [], [], now);
    const insert = repository.draftInvoiceInsert(tenant, draft, now);
    await deps.events.publish(deps.db, tenant, 'invoice.created', invoice, now, { with: insert, last });
    return { invoice, declined: null };
  }

  // The card is charged before anything is stored; the payment is stored with the invoice.
  const charge = card
    ? await chargeToRecord(deps, tenant, {
        card,
        invoiceId: draft.id,
        customerId: draft.customer_id,
        amount: draft.total,
        currency: draft.currency,
        now,
      })
    : undefined;
  const payment = charge?.payment;
  const paid = payment?.status === 'succeeded';
  const declined = payment?.failure ?? null;

  const zeroTotal = draft.total === 0;
  const unnumbered: repository.InvoiceRow = {
    ...draft,
    status: zeroTotal ? 'paid' : 'pending',
    issued_at: at,
    paid_at: zeroTotal ? at : null,
  };
  const outcome: repository.InvoiceRow = paid
    ? { ...unnumbered, status: 'paid', amount_paid: draft.total, paid_at: at, payment_method: payment.payment_method }
    : { ...unnumbered, last_payment_error: declined && { ...declined, at } };
  // One statement stores the invoice, issued and numbered, its payment and every event, which
  // show the number. The number is the last lock taken (see numberInvoice), so only COMMIT
  // comes after it.
  const numbering = repository.issuedInvoiceInsert(tenant, outcome, now);
  // invoice.created shows the invoice as issued, before any charge; then what the charge did.
  const placeholder = `number-${randomBase62(24)}`;
  const issued = invoiceView({ ...unnumbered, number: placeholder }, [], [], now);
  const outcomeView = (number: string) => invoiceView({ ...outcome, number }, payment ? [payment] : [], [], now);
  const { filled } = await deps.events.publishAll(
    deps.db,
    tenant,
    [
      ...(charge ? [charge.event] : []),
      { type: 'invoice.created', object: issued },
      ...(outcome.status === 'paid' ? [{ type: 'invoice.paid' as const, object: outcomeView(placeholder) }] : []),
    ],
    now,
    {
      with: [
        ...(charge ? [charge.insert] : []),
        ...numbering.parts,
        // a paid invoice's money goes into the customer's stats in the same statement
        ...(paid
          ? [{ name: 'spent', statement: customerBalancesWrite(tenant, draft.customer_id, { spent: draft.total }) }]
          : []),
      ],
      fill: { placeholder, value: numbering.number },
      // the number's lock is then held only while that statement runs and commits
      last,
    },
  );
  if (filled === null) throw new Error('invoice number not taken');
  const invoice = outcomeView(filled);
  if (spec.sendEmail) await queueInvoiceEmail(deps, tenant, invoice, business.name);
  return { invoice, declined };
}

/** The customer's default card, when the environment has a processor to charge it. */
function defaultCard(deps: Deps, tenant: Tenant, customerId: string): Promise<CardOnFile | undefined> {
  // Without a processor (live, unconfigured) a booking's invoice is simply left to be paid.
  if (!processorFor(deps.payments, tenant.environment)) return Promise.resolve(undefined);
  return cardToCharge(deps, tenant, { customerId });
}

/** The card an issued invoice is charged to, if any; 400 when the charge is required and there is none. */
function requireCard(deps: Deps, tenant: Tenant, spec: InvoiceSpec, card: CardOnFile | undefined) {
  if (spec.charge === 'required') requireProcessor(deps, tenant);
  if (!card && spec.charge === 'required') {
    throw invalidParameter('auto_charge', 'The customer has no default card to charge; add one first.');
  }
  return card;
}

export async function createInvoice(deps: Deps, tenant: Tenant, input: NewInvoiceBody): Promise<InvoiceView> {
  const taxRate = input.tax_rate ?? 0;
  if (taxRateUnits(taxRate) === null) {
    throw invalidParameter('tax_rate', 'tax_rate is a percent from 0 to 100 with at most 4 decimals.');
  }
  if (input.draft && input.auto_charge) {
    throw invalidParameter('auto_charge', 'A draft cannot be charged; finalize it, then pay it.');
  }
  const discount = input.discount ?? 0;
  const subtotal = input.line_items.reduce((sum, item) => sum + item.quantity * item.unit_price, 0);
  if (discount > subtotal) throw invalidParameter('discount', 'The discount is larger than the subtotal.');
  const totals = invoiceTotals(input.line_items, { taxRate, discount });
  const now = deps.clock.now();
  // A declined auto_charge still creates the invoice: 201 with last_payment_error set.
  const { invoice } = await inTransaction(deps, async (deps) => {
    if (input.booking_id !== undefined) await checkBookingReference(deps, tenant, input.booking_id, input.customer_id);
    return issueInvoice(deps, tenant, {
      customerId: input.customer_id,
      bookingId: input.booking_id ?? null,
      lineItems: totals.lineItems,
      subtotal: totals.subtotal,
      discount: totals.discount,
      discountDescription: input.discount_description ?? null,
      taxRate,
      tax: totals.tax,
      total: totals.total,
      dueDate: input.due_date ?? defaultDueDate(now),
      draft: input.draft === true,
      sendEmail: input.send_email === true,
      charge: input.auto_charge ? 'required' : 'none',
      metadata: mergeMetadata({}, input.metadata),
      endsTransaction: true,
    });
  });
  if (input.send_email && !input.draft) deps.mailer.wake();
  return invoice;
}

/** booking_id names a booking of this account and environment, for the invoice's customer. */
async function checkBookingReference(deps: Deps, tenant: Tenant, bookingId: string, customerId: string) {
  const bookingCustomer = await repository.findBookingCustomer(deps.db, tenant, bookingId);
  if (bookingCustomer === null) throw notFound('booking', bookingId, 'booking_id');
  if (bookingCustomer !== customerId) {
    throw invalidParameter('booking_id', 'The booking belongs to another customer than customer_id.');
  }
}

export interface BookingInvoiceInput {
  bookingId: string;
  customerId: string;
  /** From the booking's pricing; the figures below are taken as given, not recomputed. */
  lineItems: LineItemInput[];
  subtotal: number;
  discount: number;
  discountDescription?: string | null;
  /** Percent; with `tax` omitted the tax is computed from it. */
  taxRate: number;
  tax?: number;
  total: number;
  dueDate?: string;
  sendEmail?: boolean;
}

/**
 * Issues a completed booking's invoice in the caller's (the booking's) transaction and charges
 * the customer's default card when there is one. A decline leaves the invoice pending with
 * last_payment_error; it does not throw, so the booking still completes. Call
 * `deps.mailer.wake()` after the commit when sendEmail is true.
 */
export async function createBookingInvoice(deps: Deps, tenant: Tenant, input: BookingInvoiceInput) {
  const now = deps.clock.now();
  const lineItems = input.lineItems.map((item) => ({ ...item, total: item.quantity * item.unit_price }));
  return issueInvoice(deps, tenant, {
    customerId: input.customerId,
    bookingId: input.bookingId,
    lineItems,
    subtotal: input.subtotal,
    discount: input.discount,
    discountDescription: input.discountDescription ?? null,
    taxRate: input.taxRate,
    tax: input.tax ?? taxOn(input.subtotal - input.discount, input.taxRate),
    total: input.total,
    dueDate: input.dueDate ?? defaultDueDate(now),
    draft: false,
    sendEmail: input.sendEmail ?? false,
    charge: 'if_card_on_file',
    metadata: {},
  });
}

/** A pending invoice for a cancellation fee, in the caller's (the cancellation's) transaction. */
export async function createCancellationFeeInvoice(
  deps: Deps,
  tenant: Tenant,
  input: { bookingId: string; customerId: string; amount: number; description: string; sendEmail?: boolean },
) {
  const now = deps.clock.now();
  return issueInvoice(deps, tenant, {
    customerId: input.customerId,
    bookingId: input.bookingId,
    lineItems: [{ description: input.description, quantity: 1, unit_price: input.amount, total: input.amount }],
    subtotal: input.amount,
    discount: 0,
    discountDescription: null,
    taxRate: 0,
    tax: 0,
    total: input.amount,
    dueDate: defaultDueDate(now),
    draft: false,
    sendEmail: input.sendEmail ?? false,
    charge: 'none',
    metadata: {},
  });
}
