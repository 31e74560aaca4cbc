// Server-rendered HTML for the dashboard and the OAuth pages. Every value interpolated into
// `html` is escaped unless it is itself built with `html`, so a customer's name or an app's
// description can never become markup.
import type { FastifyReply } from 'fastify';
import { ASSETS } from './assets.ts';

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

export interface PageOptions {
  title: string;
  body: SafeHtml;
  /** Extra class on <body>, e.g. 'centered' for the login and consent pages. */
  bodyClass?: string;
  /** Shown in a banner on every page when the dashboard is in test mode. */
  banner?: SafeHtml;
}

/** The HTML document around a page: our stylesheet and script, nothing from elsewhere. */
export function layout(options: PageOptions): SafeHtml {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin">
<title>${options.title} · Fieldhand</title>
<link rel="stylesheet" href="${ASSETS.stylesheet}">
<link rel="icon" href="${ASSETS.icon}" type="image/svg+xml">
<script src="${ASSETS.script}" defer></script>
</head>
<body class="${options.bodyClass ?? ''}">
${options.banner}
${options.body}
</body>
</html>
`;
}

/** Sends a page: HTML, never cached (pages carry CSRF tokens and account data). */
export function sendPage(reply: FastifyReply, page: SafeHtml, status = 200): FastifyReply {
  return reply
    .code(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .send(page.value);
}

/** A small centred page with a heading and a message (errors, "forbidden", "not found"). */
export function messagePage(title: string, message: SafeHtml | string, link?: { href: string; label: string }) {
  return layout({
    title,
    bodyClass: 'centered',
    body: html`<main class="card narrow" id="main">
  <div class="brand brand-large"><span class="brand-mark" aria-hidden="true"></span>Fieldhand</div>
  <h1>${title}</h1>
  <p>${message}</p>
  ${link ? html`<p><a class="button" href="${safeUrl(link.href)}">${link.label}</a></p>` : null}
</main>`,
  });
}

/** The page a form posted without a valid CSRF token gets. */
export function sendForbidden(reply: FastifyReply): FastifyReply {
  return sendPage(
    reply,
    messagePage(
      'Request refused',
      'This form has expired or did not come from this site. Go back, reload the page and try again.',
      { href: '/dashboard', label: 'Back to the dashboard' },
    ),
    403,
  );
}
