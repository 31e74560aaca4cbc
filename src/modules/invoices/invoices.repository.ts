// Owns: invoices and invoice_counters (the numbering). Reads, without writing: the billed
// customer (names, a lock on the customer while money moves) and a booking's customer, for
// booking_id checks. The business name and currency are the catalog's settings (businessProfile).
import { query, queryOne, type SQL, type Sql, sql, textArray } from '../../core/db.ts';
import type { StatementPart } from '../../core/events.ts';
import { type Metadata, metadataContains } from '../../core/metadata.ts';
import { type PageRequest, pagedRows } from '../../core/paging.ts';
import { assignments, type Locking, lockIf, updateColumns } from '../../core/rows.ts';
import { type Tenant, tenantIs } from '../../core/tenant.ts';
import type { PaymentMethodSummary } from '../payments/index.ts';
import type { LineItem } from './totals.ts';

export type StoredStatus = 'draft' | 'pending' | 'paid' | 'overdue' | 'void';

export interface InvoiceRow {
  id: string;
  number: string | null;
  status: StoredStatus;
  customer_id: string;
  customer_first_name: string;
  customer_last_name: string;
  customer_email: string;
  booking_id: string | null;
  currency: string;
  line_items: LineItem[];
  subtotal: number;
  discount: number;
  discount_description: string | null;
  tax_rate: number;
  tax: number;
  total: number;
  amount_paid: number;
  amount_refunded: number;
  due_date: string;
  send_email: boolean;
  issued_at: string | null;
  paid_at: string | null;
  voided_at: string | null;
  void_reason: string | null;
  payment_method: PaymentMethodSummary | null;
  last_payment_error: { code: string; message: string; at: string } | null;
  metadata: Metadata;
  created_at: string;
  updated_at: string;
}

const INVOICE_COLUMNS = sql.raw(`select i.id, i.number, i.status, i.customer_id, c.first_name as customer_first_name,
  c.last_name as customer_last_name, c.email as customer_email, i.booking_id, i.currency, i.line_items, i.subtotal,
  i.discount, i.discount_description, i.tax_rate, i.tax, i.total, i.amount_paid, i.amount_refunded,
  i.due_date::text as due_date, i.send_email, i.issued_at, i.paid_at, i.voided_at, i.void_reason, i.payment_method,
  i.last_payment_error, i.metadata, i.created_at, i.updated_at`);
// A left join, though every invoice has its customer: PostgreSQL then leaves the customers out
// of a list's count, which reads no column of theirs.
const INVOICES_WITH_CUSTOMERS = sql.raw('from invoices i left join customers c on c.id = i.customer_id');

export interface InvoiceParty {
  first_name: string;
  last_name: string;
  email: string;
}

const PARTY_LOCKS = { money: sql` for no key update of c`, reference: sql` for key share of c` };

/**
 * The customer an invoice bills. A new invoice locks it (`lock`) before its number, the last
 * lock it takes: against changes while money moves (`money`: the charge updates the customer's
 * stats), otherwise as the invoice's foreign key would (`reference`).
 */
export function findInvoiceParty(
  db: Sql,
  tenant: Tenant,
  customerId: string,
  options: { lock?: 'money' | 'reference' } = {},
): Promise<InvoiceParty | undefined> {
  const lock = options.lock === undefined ? sql`` : PARTY_LOCKS[options.lock];
  return queryOne<InvoiceParty>(
    db,
    sql`select c.first_name, c.last_name, c.email from customers c
        where ${tenantIs(tenant, 'c')} and c.id = ${customerId}${lock}`,
  );
}

/** Ids of the environment's invoices, drafts and void ones too, up to `limit`. */
export async function findInvoiceIds(db: Sql, tenant: Tenant, limit: number): Promise<string[]> {
  const rows = await query<{ id: string }>(
    db,
    sql`select id from invoices where ${tenantIs(tenant)} order by created_at, id limit ${limit}`,
  );
  return rows.map((row) => row.id);
}

/**
 * Numbers the invoice with the environment's next invoice number (INV-000001, …) and sets
 * `changes`, in one statement; returns the number. The counter row stays locked until the
 * transaction ends, so concurrent issuers queue behind it: numbers have no duplicates, and a
 * rolled-back invoice gives its number back (no gaps). Call it after every other lock and as
 * late as possible (only the events and COMMIT after it), so the queue moves quickly.
 */
export async function numberInvoice(
  tx: Sql,
  tenant: Tenant,
  id: string,
  changes: Omit<InvoiceChanges, 'number'>,
  now: Date,
): Promise<string> {
  const numbering = invoiceNumbering(tenant, id, changes, now);
  const parts = numbering.parts.map((part) => sql`${sql.identifier(part.name)} as (${part.statement})`);
  const row = await queryOne<{ number: string }>(
    tx,
    sql`with ${sql.join(parts, sql`, `)} select ${numbering.number} as number`,
  );
  if (!row) throw new Error('invoice number not taken');
  return row.number;
}

/**
 * `numberInvoice` as parts of a statement (the one that stores the invoice's events, which show
 * the number: `PublishOptions.with` and `fill`), and the number they take as `number`.
 */
export function invoiceNumbering(
  tenant: Tenant,
  id: string,
  changes: Omit<InvoiceChanges, 'number'>,
  now: Date,
): { parts: StatementPart[]; number: SQL } {
  return {
    parts: [
      nextNumber(tenant),
      {
        name: 'numbered',
        statement: sql`update invoices set number = (select number from counter),
               ${sql.join(assignments(changes, now, renderColumn), sql`, `)}
          where ${tenantIs(tenant)} and id = ${id}
          returning number`,
      },
    ],
    number: sql`(select number from numbered)`,
  };
}

/**
 * A new invoice stored as issued, numbered by the same statement: `invoiceNumbering` for an
 * invoice that was never a draft row, so that it is written once, by the statement that stores
 * its events (and its payment, which refers to it: foreign keys are checked at the statement's end).
 */
export function issuedInvoiceInsert(
  tenant: Tenant,
  invoice: NewInvoice,
  now: Date,
): { parts: StatementPart[]; number: SQL } {
  return {
    parts: [
      nextNumber(tenant),
      {
        name: 'numbered',
        statement: sql`${invoiceInsert(tenant, invoice, now, { number: sql`number`, issuedAt: now })}
          from counter returning number`,
      },
    ],
    number: sql`(select number from numbered)`,
  };
}

/** The statement that stores a new draft (no number, not issued); published with its event. */
export function draftInvoiceInsert(tenant: Tenant, invoice: NewInvoice, now: Date): SQL {
  return invoiceInsert(tenant, invoice, now, { number: sql`null`, issuedAt: null });
}

/** A new invoice's row as `insert … select`: the issued one selects its number from the counter. */
function invoiceInsert(
  tenant: Tenant,
  invoice: NewInvoice,
  now: Date,
  issue: { number: SQL; issuedAt: Date | null },
): SQL {
  const json = (value: unknown) => (value === null ? sql`null` : sql`${JSON.stringify(value)}::jsonb`);
  return sql`insert into invoices (id, account_id, environment, number, status, customer_id, booking_id,
      currency, line_items, subtotal, discount, discount_description, tax_rate, tax, total, amount_paid,
      due_date, send_email, issued_at, paid_at, payment_method, last_payment_error, metadata, created_at,
      updated_at)
    select ${invoice.id}, ${tenant.accountId}, ${tenant.environment}, ${issue.number}, ${invoice.status},
      ${invoice.customer_id}, ${invoice.booking_id}, ${invoice.currency}, ${json(invoice.line_items)},
      ${invoice.subtotal}, ${invoice.discount}, ${invoice.discount_description}, ${invoice.tax_rate},
      ${invoice.tax}, ${invoice.total}, ${invoice.amount_paid}, ${invoice.due_date}::date, ${invoice.send_email},
      ${issue.issuedAt}::timestamptz, ${invoice.paid_at === null ? null : now}::timestamptz,
      ${json(invoice.payment_method)}, ${json(invoice.last_payment_error)}, ${json(invoice.metadata)}, ${now}, ${now}`;
}

/** The environment's next invoice number, as the part `counter` (its row stays locked until the end). */
function nextNumber(tenant: Tenant): StatementPart {
  return {
    name: 'counter',
    statement: sql`insert into invoice_counters (account_id, environment, last_number)
      values (${tenant.accountId}, ${tenant.environment}, 1)
      on conflict (account_id, environment) do update set last_number = invoice_counters.last_number + 1
      returning 'INV-' || lpad(last_number::text, greatest(6, length(last_number::text)), '0') as number`,
  };
}

/** The customer of a booking of this tenant (the bookings table is read here, not written). */
export async function findBookingCustomer(db: Sql, tenant: Tenant, bookingId: string): Promise<string | null> {
  const row = await queryOne<{ customer_id: string }>(
    db,
    sql`select customer_id from bookings where ${tenantIs(tenant)} and id = ${bookingId}`,
  );
  return row?.customer_id ?? null;
}

/** A new invoice's columns (a draft's status is `draft`); its number and `issued_at` are the insert's. */
export type NewInvoice = Pick<
  InvoiceRow,
  | 'id'
  | 'status'
  | 'customer_id'
  | 'booking_id'
  | 'currency'
  | 'line_items'
  | 'subtotal'
  | 'discount'
  | 'discount_description'
  | 'tax_rate'
  | 'tax'
  | 'total'
  | 'amount_paid'
  | 'due_date'
  | 'send_email'
  | 'paid_at'
  | 'payment_method'
  | 'last_payment_error'
  | 'metadata'
>;

export function findInvoice(db: Sql, tenant: Tenant, id: string, options: Locking = {}) {
  return queryOne<InvoiceRow>(
    db,
    sql`${INVOICE_COLUMNS} ${INVOICES_WITH_CUSTOMERS} where ${tenantIs(tenant, 'i')} and i.id = ${id}${lockIf(options, 'i')}`,
  );
}

export interface InvoiceChanges {
  number?: string;
  status?: StoredStatus;
  amount_paid?: number;
  amount_refunded?: number;
  issued_at?: Date;
  paid_at?: Date;
  voided_at?: Date;
  void_reason?: string | null;
  payment_method?: PaymentMethodSummary;
  last_payment_error?: InvoiceRow['last_payment_error'];
  metadata?: Metadata;
}

const JSON_COLUMNS = new Set(['payment_method', 'last_payment_error', 'metadata']);

export async function updateInvoice(
  db: Sql,
  tenant: Tenant,
  id: string,
  changes: InvoiceChanges,
  now: Date,
): Promise<void> {
  await updateColumns(db, 'invoices', { tenant, id }, changes, now, renderColumn);
}

function renderColumn(column: string, value: unknown): SQL {
  return JSON_COLUMNS.has(column) && value !== null ? sql`${JSON.stringify(value)}::jsonb` : sql`${value}`;
}

export interface InvoiceFilters {
  status?: StoredStatus;
  customerId?: string;
  issuedFrom?: Date;
  issuedBefore?: Date;
  minTotal?: number;
  maxTotal?: number;
  ids?: string[];
  metadata?: Metadata;
}

/** `today` (UTC) decides which pending invoices already read as overdue. */
function filterConditions(tenant: Tenant, filters: InvoiceFilters, today: string): SQL {
  const conditions: SQL[] = [tenantIs(tenant, 'i')];
  if (filters.status === 'overdue') {
    conditions.push(sql`(i.status = 'overdue' or (i.status = 'pending' and i.due_date < ${today}::date))`);
  } else if (filters.status === 'pending') {
    conditions.push(sql`i.status = 'pending' and i.due_date >= ${today}::date`);
  } else if (filters.status !== undefined) {
    conditions.push(sql`i.status = ${filters.status}`);
  }
  if (filters.customerId !== undefined) conditions.push(sql`i.customer_id = ${filters.customerId}`);
  if (filters.issuedFrom) conditions.push(sql`i.issued_at >= ${filters.issuedFrom}`);
  if (filters.issuedBefore) conditions.push(sql`i.issued_at < ${filters.issuedBefore}`);
  if (filters.minTotal !== undefined) conditions.push(sql`i.total >= ${filters.minTotal}`);
  if (filters.maxTotal !== undefined) conditions.push(sql`i.total <= ${filters.maxTotal}`);
  if (filters.ids) conditions.push(sql`i.id = any(${textArray(filters.ids)})`);
  if (filters.metadata) conditions.push(metadataContains(filters.metadata, sql`i.metadata`));
  return sql.join(conditions, sql` and `);
}

export async function listInvoices(
  db: Sql,
  tenant: Tenant,
  filters: InvoiceFilters,
  page: PageRequest,
  today: string,
): Promise<{ rows: InvoiceRow[]; total: number }> {
  return pagedRows<InvoiceRow>(
    db,
    {
      select: INVOICE_COLUMNS,
      from: sql`${INVOICES_WITH_CUSTOMERS} where ${filterConditions(tenant, filters, today)}`,
      order: sql`order by i.created_at desc, i.id desc`,
    },
    page,
  );
}

/**
 * Claims pending invoices past due (across all tenants: a background sweep) and marks them
 * overdue. SKIP LOCKED lets several instances sweep at once without taking the same rows.
 */
export function markOverdue(
  tx: Sql,
  today: string,
  now: Date,
  limit: number,
  accountId?: string,
): Promise<{ id: string; account_id: string; environment: Tenant['environment'] }[]> {
  const account = accountId === undefined ? sql`` : sql` and account_id = ${accountId}`;
  return query(
    tx,
    sql`update invoices set status = 'overdue', updated_at = ${now}
        where status = 'pending' and id in (
          select id from invoices where status = 'pending' and due_date < ${today}::date${account}
          order by due_date, id limit ${limit} for update skip locked)
        returning id, account_id, environment`,
  );
}

/** The invoices billing a booking (its completion invoice, a cancellation fee), oldest first. */
export function listBookingInvoices(db: Sql, tenant: Tenant, bookingId: string) {
  return query<{ id: string; number: string | null; status: StoredStatus; due_date: string; total: number }>(
    db,
    sql`select id, number, status, due_date::text as due_date, total from invoices
        where ${tenantIs(tenant)} and booking_id = ${bookingId} order by created_at, id`,
  );
}
