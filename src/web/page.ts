// A whole page: the HTML document around a page's content, sending it, the small message pages
// (refused, not found, unavailable) and the error handler that answers every failure of a
// browser page in HTML, never with the API's JSON envelope.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError, isServiceUnavailable } from '../core/errors.ts';
import { logUnavailable } from '../core/logger.ts';
import { ASSETS } from './assets.ts';
import { html, type SafeHtml, safeUrl } from './html.ts';

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

type Link = { href: string; label: string };

/** A small centred page with a heading and a message (errors, "forbidden", "not found"). */
export function messagePage(title: string, message: SafeHtml | string, link?: Link) {
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

const DASHBOARD_LINK: Link = { href: '/dashboard', label: 'Back to the dashboard' };

/** The page a form posted without a valid CSRF token gets. */
export function sendForbidden(reply: FastifyReply): FastifyReply {
  return sendPage(
    reply,
    messagePage(
      'Request refused',
      'This form has expired or did not come from this site. Go back, reload the page and try again.',
      DASHBOARD_LINK,
    ),
    403,
  );
}

/** The 503 page while the database is out of reach; browsers and proxies may retry in a second. */
export function sendUnavailable(reply: FastifyReply, message: string, link?: Link): FastifyReply {
  return sendPage(reply.header('retry-after', '1'), messagePage('Temporarily unavailable', message, link), 503);
}

/**
 * The error handler of the dashboard's pages (sign-in included): a database outage is a 503
 * page, a client's mistake (an unreadable body, a path id that cannot exist) keeps its 4xx, and
 * anything else is a 500 page that says nothing about our internals.
 */
export function sendErrorPage(error: unknown, request: FastifyRequest, reply: FastifyReply) {
  if (isServiceUnavailable(error)) {
    logUnavailable(request.log, 'dashboard', error);
    return sendUnavailable(
      reply,
      'The dashboard is temporarily unavailable. Your data is safe; try again in a moment.',
      { href: request.method === 'GET' ? request.url : '/dashboard', label: 'Try again' },
    );
  }
  const status = error instanceof AppError ? error.status : (error as { statusCode?: number }).statusCode;
  if (status !== undefined && status >= 400 && status < 500) {
    const page =
      status === 404
        ? messagePage('Not found', 'There is nothing at this address.', DASHBOARD_LINK)
        : messagePage('Request not understood', 'Go back, reload the page and try again.', DASHBOARD_LINK);
    return sendPage(reply, page, status);
  }
  request.log.error({ err: error }, 'dashboard page failed');
  return sendPage(
    reply,
    messagePage('Something went wrong', 'The page could not be shown. Try again in a moment.', DASHBOARD_LINK),
    500,
  );
}
