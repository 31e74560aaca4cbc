// The sign-in page (the dashboard's, and the OAuth consent's first step).
import { html, type SafeHtml } from '../../web/html.ts';
import { layout } from '../../web/page.ts';

export interface SignInPage {
  /** The login form's CSRF token. */
  token: string;
  /** Where to go once signed in. */
  next: string;
  email?: string;
  error?: string;
  notice?: string;
}

export function signInPage(page: SignInPage): SafeHtml {
  return layout({
    title: 'Sign in',
    bodyClass: 'centered',
    body: html`<main class="card narrow" id="main">
  <div class="brand brand-large"><span class="brand-mark" aria-hidden="true"></span>Fieldhand</div>
  <h1>Sign in</h1>
  <p class="lead">Sign in to manage your business and its integrations.</p>
  ${page.error ? html`<div class="alert error" role="alert" id="login-error">${page.error}</div>` : null}
  ${page.notice ? html`<div class="alert success" role="status">${page.notice}</div>` : null}
  <form method="post" action="/dashboard/login" novalidate>
    <input type="hidden" name="_csrf" value="${page.token}">
    <input type="hidden" name="next" value="${page.next}">
    <div class="field">
      <label for="email">E-mail</label>
      <input id="email" name="email" type="email" autocomplete="username" required value="${page.email ?? ''}"
        ${page.email ? null : html`autofocus`}>
    </div>
    <div class="field">
      <label for="password">Password</label>
      <input id="password" name="password" type="password" autocomplete="current-password" required
        ${page.email ? html`autofocus` : null}>
    </div>
    <button type="submit" class="full">Sign in</button>
  </form>
</main>`,
  });
}
