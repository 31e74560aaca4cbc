// The e-mail that carries an issued invoice to its customer, queued in the issuing transaction.
import type { Deps } from '../../core/deps.ts';
import { formatMoney } from '../../core/money.ts';
import type { Tenant } from '../../core/tenant.ts';
import type { InvoiceView } from './invoices.schemas.ts';

/** Queues the invoice's e-mail; call `deps.mailer.wake()` once the transaction has committed. */
export async function queueInvoiceEmail(
  deps: Deps,
  tenant: Tenant,
  invoice: InvoiceView,
  business: string,
): Promise<void> {
  const money = (cents: number) => formatMoney(cents, invoice.currency);
  const lines = invoice.line_items.map(
    (item) => `  ${item.description} x ${item.quantity} @ ${money(item.unit_price)} = ${money(item.total)}`,
  );
  const owed =
    invoice.balance > 0 ? `Amount due: ${money(invoice.balance)} by ${invoice.due_date}.` : 'Paid in full. Thank you!';
  await deps.mailer.queue(deps.db, tenant, {
    kind: 'invoice',
    to: invoice.customer.email,
    subject: `Invoice ${invoice.number} from ${business}`,
    text:
      `Hello ${invoice.customer.name},\n\nHere is invoice ${invoice.number} from ${business}.\n\n` +
      `${lines.join('\n')}\n\nSubtotal: ${money(invoice.subtotal)}\n` +
      (invoice.discount > 0 ? `Discount: -${money(invoice.discount)}\n` : '') +
      `Tax: ${money(invoice.tax)}\nTotal: ${money(invoice.total)}\n\n${owed}\n`,
  });
}
