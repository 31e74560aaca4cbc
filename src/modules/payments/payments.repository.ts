// Owns: payment_methods (cards on file), payments and refunds. Customers are read through the
// customers module's service; invoices are changed only by the invoices module.
import { query, queryOne, type SQL, type Sql, sql, textArray } from '../../core/db.ts';
import { type PageRequest, pageOfTable } from '../../core/paging.ts';
import { findCustomersRow, removeKeepingADefault } from '../../core/rows.ts';
import { type Tenant, tenantIs } from '../../core/tenant.ts';

export interface PaymentMethodRow {
  id: string;
  customer_id: string;
  type: 'card';
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
  processor_token: string;
  is_default: boolean;
  created_at: string;
}

const PM_COLUMNS = sql.raw(
  'id, customer_id, type, brand, last4, exp_month, exp_year, processor_token, is_default, created_at',
);

export async function insertPaymentMethod(db: Sql, tenant: Tenant, row: PaymentMethodRow): Promise<void> {
  await query(
    db,
    sql`insert into payment_methods (id, account_id, environment, customer_id, type, brand, last4, exp_month, exp_year,
                                     processor_token, is_default, created_at)
        values (${row.id}, ${tenant.accountId}, ${tenant.environment}, ${row.customer_id}, ${row.type}, ${row.brand},
                ${row.last4}, ${row.exp_month}, ${row.exp_year}, ${row.processor_token}, ${row.is_default}, ${row.created_at})`,
  );
}

export function findPaymentMethod(db: Sql, tenant: Tenant, customerId: string, id: string) {
  return findCustomersRow<PaymentMethodRow>(db, 'payment_methods', PM_COLUMNS, tenant, { customerId, id });
}

export function findDefaultPaymentMethod(db: Sql, tenant: Tenant, customerId: string) {
  return queryOne<PaymentMethodRow>(
    db,
    sql`select ${PM_COLUMNS} from payment_methods
        where ${tenantIs(tenant)} and customer_id = ${customerId} and is_default and removed_at is null`,
  );
}

export async function countPaymentMethods(db: Sql, tenant: Tenant, customerId: string): Promise<number> {
  const row = await queryOne<{ count: number }>(
    db,
    sql`select count(*) as count from payment_methods
        where ${tenantIs(tenant)} and customer_id = ${customerId} and removed_at is null`,
  );
  return row?.count ?? 0;
}

export async function listPaymentMethods(
  db: Sql,
  tenant: Tenant,
  customerId: string,
  filters: { ids?: string[] },
  page: PageRequest,
): Promise<{ rows: PaymentMethodRow[]; total: number }> {
  const conditions = [tenantIs(tenant), sql`customer_id = ${customerId}`, sql`removed_at is null`];
  if (filters.ids) conditions.push(sql`id = any(${textArray(filters.ids)})`);
  return pageOfTable<PaymentMethodRow>(db, { table: 'payment_methods', columns: PM_COLUMNS, where: conditions }, page);
}

export async function clearDefaultPaymentMethod(db: Sql, tenant: Tenant, customerId: string): Promise<void> {
  await query(
    db,
    sql`update payment_methods set is_default = false
        where ${tenantIs(tenant)} and customer_id = ${customerId} and is_default and removed_at is null`,
  );
}

export async function setDefaultPaymentMethod(db: Sql, tenant: Tenant, id: string): Promise<void> {
  await query(db, sql`update payment_methods set is_default = true where ${tenantIs(tenant)} and id = ${id}`);
}

/** The newest remaining card becomes the default when the removed one was. */
export function removePaymentMethod(db: Sql, tenant: Tenant, customerId: string, id: string, now: Date) {
  return removeKeepingADefault(db, 'payment_methods', tenant, { customerId, id }, now);
}

export interface PaymentRow {
  id: string;
  invoice_id: string;
  customer_id: string;
  amount: number;
  method: 'card' | 'cash' | 'check';
  payment_method_id: string | null;
  brand: string | null;
  last4: string | null;
  status: 'succeeded' | 'failed';
  failure_code: string | null;
  failure_message: string | null;
  processor_reference: string | null;
  amount_refunded: number;
  created_at: string;
}

const PAYMENT_COLUMNS = sql.raw(`id, invoice_id, customer_id, amount, method, payment_method_id, brand, last4, status,
  failure_code, failure_message, processor_reference, amount_refunded, created_at`);

/** The payment's insert, for the statement that publishes its event (`PublishOptions.with`). */
export function paymentInsert(tenant: Tenant, row: PaymentRow): SQL {
  return sql`insert into payments (id, account_id, environment, invoice_id, customer_id, amount, method, payment_method_id,
                                   brand, last4, status, failure_code, failure_message, processor_reference, amount_refunded,
                                   created_at)
             values (${row.id}, ${tenant.accountId}, ${tenant.environment}, ${row.invoice_id}, ${row.customer_id},
                     ${row.amount}, ${row.method}, ${row.payment_method_id}, ${row.brand}, ${row.last4}, ${row.status},
                     ${row.failure_code}, ${row.failure_message}, ${row.processor_reference}, ${row.amount_refunded},
                     ${row.created_at}::timestamptz)`;
}

export function listPayments(db: Sql, tenant: Tenant, invoiceIds: string[]): Promise<PaymentRow[]> {
  if (invoiceIds.length === 0) return Promise.resolve([]);
  return query<PaymentRow>(
    db,
    sql`select ${PAYMENT_COLUMNS} from payments where ${tenantIs(tenant)} and invoice_id = any(${textArray(invoiceIds)})
        order by seq`,
  );
}

export async function addPaymentRefunded(db: Sql, tenant: Tenant, paymentId: string, amount: number): Promise<void> {
  await query(
    db,
    sql`update payments set amount_refunded = amount_refunded + ${amount} where ${tenantIs(tenant)} and id = ${paymentId}`,
  );
}

export interface RefundRow {
  id: string;
  invoice_id: string;
  customer_id: string;
  amount: number;
  reason: string | null;
  refund_to: 'original_payment_method' | 'account_credit';
  status: 'succeeded';
  created_at: string;
}

export async function insertRefund(db: Sql, tenant: Tenant, row: RefundRow): Promise<void> {
  await query(
    db,
    sql`insert into refunds (id, account_id, environment, invoice_id, customer_id, amount, reason, refund_to, status, created_at)
        values (${row.id}, ${tenant.accountId}, ${tenant.environment}, ${row.invoice_id}, ${row.customer_id}, ${row.amount},
                ${row.reason}, ${row.refund_to}, ${row.status}, ${row.created_at})`,
  );
}

export function listRefunds(db: Sql, tenant: Tenant, invoiceIds: string[]): Promise<RefundRow[]> {
  if (invoiceIds.length === 0) return Promise.resolve([]);
  return query<RefundRow>(
    db,
    sql`select id, invoice_id, customer_id, amount, reason, refund_to, status, created_at from refunds
        where ${tenantIs(tenant)} and invoice_id = any(${textArray(invoiceIds)}) order by seq`,
  );
}
