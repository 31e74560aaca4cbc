// Small pieces of pages that show data the same way everywhere: times, money, the pager.
import { html, type SafeHtml } from './html.ts';

const formats = new Map<string, Intl.DateTimeFormat>();

/** "Jun 2, 2026, 09:00 EDT": the zone's abbreviation names the time zone the time is in. */
function formatIn(timeZone: string): Intl.DateTimeFormat {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      year: 'numeric',
      month: 'short',
      day: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
      timeZone,
      timeZoneName: 'short',
    });
    formats.set(timeZone, format);
  }
  return format;
}

/**
 * A timestamp for people, in `timeZone` (a zone's IANA name; UTC where no zone applies), with
 * the exact UTC value in a <time> element and the time zone's full name in its title.
 */
export function when(iso: string | null, fallback = 'Never', timeZone = 'UTC'): SafeHtml {
  if (!iso) return html`<span class="hint">${fallback}</span>`;
  const title = timeZone === 'UTC' ? iso : `${iso} (${timeZone})`;
  return html`<time datetime="${iso}" title="${title}">${formatIn(timeZone).format(new Date(iso))}</time>`;
}

// one money formatter for the whole product
export { formatMoney as money } from '../core/money.ts';

/** The line under a list: how many there are, which page this is, and Previous/Next links. */
export function pager(options: {
  noun: string;
  total: number;
  page: number;
  totalPages: number;
  link: (page: number) => string;
}): SafeHtml {
  const { noun, total, page, totalPages, link } = options;
  return html`<nav class="pager" aria-label="Pages">
  <span>${total} ${noun}${total === 1 ? '' : 's'} · page ${page} of ${Math.max(1, totalPages)}</span>
  <span class="actions">
    ${page > 1 ? html`<a class="button secondary small" href="${link(page - 1)}" rel="prev">Previous</a>` : null}
    ${page < totalPages ? html`<a class="button secondary small" href="${link(page + 1)}" rel="next">Next</a>` : null}
  </span>
</nav>`;
}

/**
 * A list's table, or its empty state when it has no rows: `title` in bold, then a hint (what to
 * try when filters hid every row, or where rows come from).
 */
export function tableOrEmpty(rows: number, empty: { title: string; hint: string }, table: () => SafeHtml): SafeHtml {
  if (rows > 0) return table();
  return html`<div class="table-wrap"><div class="empty"><strong>${empty.title}</strong>${empty.hint}</div></div>`;
}
