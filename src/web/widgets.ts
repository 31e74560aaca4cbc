// Small pieces of pages that show data the same way everywhere: times, money, the pager.
import { html, type SafeHtml } from './html.ts';

const DATE_FORMAT = new Intl.DateTimeFormat('en-US', {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
  timeZone: 'UTC',
});

/** A timestamp for people, with the exact value in a <time> element. */
export function when(iso: string | null, fallback = 'Never'): SafeHtml {
  if (!iso) return html`<span class="hint">${fallback}</span>`;
  return html`<time datetime="${iso}" title="${iso}">${DATE_FORMAT.format(new Date(iso))} UTC</time>`;
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
