import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/core/clock.ts';
import { query, sql } from '../src/core/db.ts';
import { hashSecret } from '../src/modules/accounts/index.ts';
import { html, safeNext, safeUrl, trusted } from '../src/modules/sessions/index.ts';
import { createTestAccount, startTestApp, type TestAccount, type TestApp } from './helpers/app.ts';
import { csrfFrom, formClient } from './helpers/forms.ts';

let t: TestApp;
let acct: TestAccount;
const clock = new ManualClock('2030-03-01T09:00:00Z');
let ipCounter = 0;
/** Each test signs in from its own address, so IP throttling in one cannot leak into another. */
const freshClient = () => formClient(t.url, { 'x-forwarded-for': `10.1.0.${++ipCounter}` });

beforeAll(async () => {
  t = await startTestApp({ clock });
  acct = await createTestAccount(t);
});
afterAll(() => t.close());

async function sessionRows(accountId: string) {
  return query<{ token_hash: string; environment: string; user_id: string }>(
    t.database.sql,
    sql`select token_hash, environment, user_id from sessions where account_id = ${accountId}`,
  );
}

describe('dashboard sign-in', () => {
  it('signs in with a session cookie that is HttpOnly, SameSite=Lax, and stored only as a hash', async () => {
    const browser = freshClient();
    const login = await browser.get('/dashboard/login?next=/dashboard/customers');
    expect(login.status).toBe(200);
    expect(login.headers.get('content-type')).toContain('text/html');
    expect(login.text).toContain('name="next" value="/dashboard/customers"');

    const res = await browser.post('/dashboard/login', {
      _csrf: csrfFrom(login.text),
      email: acct.adminEmail.toUpperCase(),
      password: acct.adminPassword,
      next: '/dashboard/customers',
    });
    expect(res.status).toBe(303);
    expect(res.location).toBe('/dashboard/customers');
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('fieldhand_session='));
    expect(cookie).toMatch(/; Path=\//);
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; SameSite=Lax/);
    expect(cookie).not.toMatch(/Secure/);

    const token = browser.cookies.get('fieldhand_session')!;
    const rows = await sessionRows(acct.accountId);
    expect(rows).toContainEqual({ token_hash: hashSecret(token), environment: 'test', user_id: acct.userId });
    const raw = await query(t.database.sql, sql`select * from sessions where token_hash = ${token}`);
    expect(raw).toEqual([]);
  });

  it('refuses a wrong password and an unknown e-mail with the same message', async () => {
    const browser = freshClient();
    const wrong = await browser.signIn(acct.adminEmail, 'not the password');
    const unknown = await browser.signIn('nobody@example.com', 'whatever123');
    for (const res of [wrong, unknown]) {
      expect(res.status).toBe(401);
      expect(res.text).toContain('That e-mail and password do not match.');
      expect(res.headers.getSetCookie().some((c) => c.startsWith('fieldhand_session='))).toBe(false);
    }
  });

  it('refuses a login form posted without its CSRF token', async () => {
    const browser = freshClient();
    await browser.get('/dashboard/login');
    const res = await browser.post('/dashboard/login', { email: acct.adminEmail, password: acct.adminPassword });
    expect(res.status).toBe(403);
    expect(browser.cookies.has('fieldhand_session')).toBe(false);
    // a token from another browser does not do either
    const other = freshClient();
    const otherPage = await other.get('/dashboard/login');
    const forged = await browser.post('/dashboard/login', {
      _csrf: csrfFrom(otherPage.text),
      email: acct.adminEmail,
      password: acct.adminPassword,
    });
    expect(forged.status).toBe(403);
  });

  it('marks the cookie Secure when BASE_URL is https', async () => {
    const secure = await startTestApp({
      env: { BASE_URL: 'https://dashboard.example.com' },
      clock,
      database: t.database,
      workers: false,
    });
    try {
      const browser = formClient(secure.url, { 'x-forwarded-for': '10.9.9.9' });
      const res = await browser.signIn(acct.adminEmail, acct.adminPassword);
      expect(res.status).toBe(303);
      const cookie = res.headers.getSetCookie().find((c) => c.startsWith('fieldhand_session='));
      expect(cookie).toMatch(/; Secure/);
      expect(res.headers.get('strict-transport-security')).toMatch(/max-age=/);
    } finally {
      await secure.close();
    }
  });

  it('sends security headers on dashboard and OAuth pages, not on the API', async () => {
    const page = await fetch(`${t.url}/dashboard/login`);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(page.headers.get('content-security-policy')).not.toContain('unsafe-inline');
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(page.headers.get('referrer-policy')).toBe('same-origin');
    expect(page.headers.get('cache-control')).toBe('no-store');
    const oauth = await fetch(`${t.url}/oauth/authorize`);
    expect(oauth.headers.get('x-frame-options')).toBe('DENY');
    expect(oauth.headers.get('content-security-policy')).not.toContain('form-action');
    const api = await fetch(`${t.url}/v1/customers`);
    expect(api.headers.get('content-security-policy')).toBeNull();
  });

  it('serves its stylesheet and script from this server', async () => {
    const css = await fetch(`${t.url}/dashboard/assets/style.css`);
    expect(css.status).toBe(200);
    expect(css.headers.get('content-type')).toContain('text/css');
    const js = await fetch(`${t.url}/dashboard/assets/app.js`);
    expect(js.headers.get('content-type')).toContain('javascript');
    expect((await fetch(`${t.url}/dashboard/assets/..%2F..%2Fapp.ts`)).status).toBe(404);
  });

  it('signs out: the session row is gone and the old cookie no longer works', async () => {
    const browser = freshClient();
    await browser.signIn(acct.adminEmail, acct.adminPassword);
    const token = browser.cookies.get('fieldhand_session')!;
    const switchPage = await browser.post('/dashboard/environment', { environment: 'live' });
    expect(switchPage.status).toBe(403); // no CSRF token

    const csrf = await csrfOf(browser);
    const out = await browser.post('/dashboard/logout', { _csrf: csrf });
    expect(out.status).toBe(303);
    expect(out.location).toBe('/dashboard/login?signed_out=1');
    expect(browser.cookies.has('fieldhand_session')).toBe(false);
    const left = await query(t.database.sql, sql`select 1 from sessions where token_hash = ${hashSecret(token)}`);
    expect(left).toEqual([]);

    const stale = formClient(t.url);
    stale.cookies.set('fieldhand_session', token);
    const res = await stale.post('/dashboard/environment', { environment: 'live', _csrf: csrf });
    expect(res.status).toBe(303);
    expect(res.location).toMatch(/^\/dashboard\/login\?next=/);
  });

  it('switches the environment only with a valid CSRF token', async () => {
    const browser = freshClient();
    await browser.signIn(acct.adminEmail, acct.adminPassword);
    const token = hashSecret(browser.cookies.get('fieldhand_session')!);
    const environmentOf = async () =>
      (
        await query<{ environment: string }>(
          t.database.sql,
          sql`select environment from sessions where token_hash = ${token}`,
        )
      )[0]?.environment;

    expect((await browser.post('/dashboard/environment', { environment: 'live', _csrf: 'forged' })).status).toBe(403);
    expect(await environmentOf()).toBe('test');
    const res = await browser.post('/dashboard/environment', {
      environment: 'live',
      _csrf: await csrfOf(browser),
      next: '/dashboard/customers/cust_0123456789ABCDEFGHIJKLMN',
    });
    expect(res.status).toBe(303);
    expect(res.location).toBe('/dashboard/customers');
    expect(await environmentOf()).toBe('live');
  });

  it('expires a session after 12 idle hours', async () => {
    const browser = freshClient();
    await browser.signIn(acct.adminEmail, acct.adminPassword);
    const csrf = await csrfOf(browser);
    clock.advance(12 * 60 * 60 * 1000 + 1000);
    const res = await browser.post('/dashboard/environment', { environment: 'live', _csrf: csrf });
    expect(res.status).toBe(303);
    expect(res.location).toMatch(/^\/dashboard\/login/);
  });
});

describe('login throttling', () => {
  it('pauses sign-in for an e-mail for 15 minutes after 5 failures within 15 minutes', async () => {
    const target = await createTestAccount(t);
    // Failures from different addresses: the e-mail's own counter is what locks.
    for (let attempt = 1; attempt <= 4; attempt++) {
      const res = await freshClient().signIn(target.adminEmail, 'wrong password');
      expect(res.status).toBe(401);
    }
    const fifth = await freshClient().signIn(target.adminEmail, 'wrong password');
    expect(fifth.status).toBe(429);
    expect(fifth.text).toContain('Too many failed sign-in attempts');

    // Even the right password is refused while paused, and says when to come back.
    const right = await freshClient().signIn(target.adminEmail, target.adminPassword);
    expect(right.status).toBe(429);
    expect(right.headers.get('retry-after')).toBe('900');
    expect(right.text).toContain('try again in 15 minutes');

    clock.advance(14 * 60 * 1000);
    expect((await freshClient().signIn(target.adminEmail, target.adminPassword)).status).toBe(429);
    clock.advance(61 * 1000);
    const later = await freshClient().signIn(target.adminEmail, target.adminPassword);
    expect(later.status).toBe(303);
  });

  it('pauses sign-in from an IP address after 5 failures for any e-mails', async () => {
    const browser = formClient(t.url, { 'x-forwarded-for': '10.2.0.1' });
    for (let attempt = 1; attempt <= 4; attempt++) {
      expect((await browser.signIn(`guess-${attempt}@example.com`, 'wrong password')).status).toBe(401);
    }
    expect((await browser.signIn('guess-5@example.com', 'wrong password')).status).toBe(429);
    expect((await browser.signIn(acct.adminEmail, acct.adminPassword)).status).toBe(429);
    // Another address is not affected.
    expect((await freshClient().signIn(acct.adminEmail, acct.adminPassword)).status).toBe(303);
  });

  it('ignores X-Forwarded-For unless TRUST_PROXY is set, so a forged address cannot dodge the IP pause', async () => {
    const direct = await startTestApp({ env: { TRUST_PROXY: 'false' } });
    try {
      for (let attempt = 1; attempt <= 5; attempt++) {
        const forged = formClient(direct.url, { 'x-forwarded-for': `10.3.0.${attempt}` });
        const expected = attempt < 5 ? 401 : 429;
        expect((await forged.signIn(`forged-${attempt}@example.com`, 'wrong password')).status).toBe(expected);
      }
    } finally {
      await direct.close();
    }
  });

  it('counts failures in a 15-minute window: spread-out failures never lock', async () => {
    const target = await createTestAccount(t);
    for (let attempt = 1; attempt <= 8; attempt++) {
      expect((await freshClient().signIn(target.adminEmail, 'wrong password')).status).toBe(401);
      clock.advance(4 * 60 * 1000);
      if (attempt % 4 === 0) clock.advance(15 * 60 * 1000);
    }
    expect((await freshClient().signIn(target.adminEmail, target.adminPassword)).status).toBe(303);
  });
});

describe('pages helpers', () => {
  it('escapes everything interpolated into html, keeping nested fragments', () => {
    const name = `<script>alert("x")</script>' onmouseover='x' &amp;`;
    const page = html`<p title="${name}">${name}</p>${html`<b>${'&'}</b>`}${[html`<i>1</i>`, '<2>']}${null}${trusted('<hr>')}`;
    expect(page.value).toBe(
      '<p title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39; onmouseover=&#39;x&#39; &amp;amp;">' +
        '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39; onmouseover=&#39;x&#39; &amp;amp;</p>' +
        '<b>&amp;</b><i>1</i>&lt;2&gt;<hr>',
    );
  });

  it('only sends signed-in visitors back to paths on this site', () => {
    expect(safeNext('/dashboard/customers?search=a')).toBe('/dashboard/customers?search=a');
    expect(safeNext('/oauth/authorize?client_id=app_1&state=x')).toBe('/oauth/authorize?client_id=app_1&state=x');
    for (const hostile of [
      '//evil.example',
      '/\\evil.example',
      'https://evil.example',
      'javascript:alert(1)',
      '/v1/customers',
      '/dashboard\n/x',
      '',
    ]) {
      expect(safeNext(hostile)).toBe('/dashboard');
    }
    expect(safeUrl('javascript:alert(1)')).toBe('#');
    expect(safeUrl('https://example.com/logo.png')).toBe('https://example.com/logo.png');
  });
});

/** The session's CSRF token, as its pages carry it in every form. */
async function csrfOf(browser: ReturnType<typeof formClient>): Promise<string> {
  const token = hashSecret(browser.cookies.get('fieldhand_session') ?? '');
  const rows = await query<{ csrf_secret: string }>(
    t.database.sql,
    sql`select csrf_secret from sessions where token_hash = ${token}`,
  );
  if (!rows[0]) throw new Error('not signed in');
  return rows[0].csrf_secret;
}
