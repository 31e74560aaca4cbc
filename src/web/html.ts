// Server-rendered HTML for the dashboard and the OAuth pages. Every value interpolated into
// `html` is escaped unless it is itself built with `html`, so a customer's name
// or an app's description can never become markup.

export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '`': '&#96;',
};

export function escapeHtml(value: unknown): string {
  return String(value).replace(/[&<>"'`]/g, (character) => ESCAPES[character] ?? character);
}

type Fragment = SafeHtml | string | number | boolean | null | undefined | readonly Fragment[];

function render(value: Fragment): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(value);
}

/**
 * Tagged template: `html\`<p>${name}</p>\``. Strings are escaped, nested `html` fragments and
 * arrays of them are kept; null, undefined and false render nothing. Interpolate into element
 * content or double-quoted attributes only (never into `<script>`, `style` or unquoted values).
 */
export function html(strings: TemplateStringsArray, ...values: Fragment[]): SafeHtml {
  let out = strings[0] ?? '';
  for (let index = 0; index < values.length; index++) {
    out += render(values[index]) + (strings[index + 1] ?? '');
  }
  return new SafeHtml(out);
}

/**
 * A URL safe for an href/src attribute: http(s) or a same-site path, anything else
 * (javascript:, data:) becomes '#'.
 */
export function safeUrl(url: string): string {
  if (/^\/(?![/\\])/.test(url)) return url;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.toString() : '#';
  } catch {
    return '#';
  }
}
