import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/core/clock.ts';
import { query, sql } from '../src/core/db.ts';
import { hashSecret } from '../src/core/ids.ts';
import { DEVICE_COOKIE, SIGN_IN_LIMITS, safeNext, THROTTLE_LOCK_MS } from '../src/modules/sessions/index.ts';
import { html, safeUrl } from '../src/web/html.ts';
import { createTestAccount, startTestApp, type TestAccount, type TestApp } from './helpers/app.ts';
import { csrfFrom, formClient } from './helpers/forms.ts';

let t: TestApp;
let acct: TestAccount;
const clock = new ManualClock('2030-03-01T09:00:00Z');
let ipCounter = 0;
/** Each test signs in from its own address, so IP throttling in one cannot leak into another. */
const freshClient = () => formClient(t.url, { 'x-forwarded-for': `10.1.0.${++ipCounter}` });

beforeAll(async () => {
  t = await startTestApp({ clock, workers: false });
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
      const device = res.headers.getSetCookie().find((c) => c.startsWith(`${DEVICE_COOKIE}=`));
      expect(device).toMatch(/; Secure/);
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
  it('pauses sign-in for an e-mail from one address for 15 minutes after 5 failures within 15 minutes', async () => {
    const target = await createTestAccount(t);
    const attacked = { 'x-forwarded-for': '10.1.1.1' };
    const attacker = formClient(t.url, attacked);
    for (let attempt = 1; attempt <= 4; attempt++) {
      const res = await attacker.signIn(target.adminEmail, 'wrong password');
      expect(res.status).toBe(401);
    }
    const fifth = await attacker.signIn(target.adminEmail, 'wrong password');
    expect(fifth.status).toBe(429);
    expect(fifth.text).toContain('Too many failed sign-in attempts');

    // Even the right password is refused there, in a browser that never signed in to this
    // e-mail, and says when to come back.
    const right = await formClient(t.url, attacked).signIn(target.adminEmail, target.adminPassword);
    expect(right.status).toBe(429);
    expect(right.headers.get('retry-after')).toBe('900');
    expect(right.text).toContain('try again in 15 minutes');
    // From another address the e-mail is not paused.
    expect((await freshClient().signIn(target.adminEmail, target.adminPassword)).status).toBe(303);

    clock.advance(14 * 60 * 1000);
    expect((await formClient(t.url, attacked).signIn(target.adminEmail, target.adminPassword)).status).toBe(429);
    clock.advance(61 * 1000);
    const later = await formClient(t.url, attacked).signIn(target.adminEmail, target.adminPassword);
    expect(later.status).toBe(303);
  });

  it(`pauses sign-in from an address after ${SIGN_IN_LIMITS.address} failures for any e-mails`, async () => {
    const browser = formClient(t.url, { 'x-forwarded-for': '10.2.0.1' });
    for (let attempt = 1; attempt < SIGN_IN_LIMITS.address; attempt++) {
      expect((await browser.signIn(`guess-${attempt}@example.com`, 'wrong password')).status).toBe(401);
    }
    const last = await browser.signIn('guess-last@example.com', 'wrong password');
    expect(last.status).toBe(429);
    expect(last.text).toContain('Too many failed sign-in attempts');
    expect((await browser.signIn(acct.adminEmail, acct.adminPassword)).status).toBe(429);
    // Another address is not affected.
    expect((await freshClient().signIn(acct.adminEmail, acct.adminPassword)).status).toBe(303);
  });

  it('ignores X-Forwarded-For unless TRUST_PROXY is set, so a forged address cannot dodge the address pause', {
    timeout: 90_000,
  }, async () => {
    const direct = await startTestApp({ env: { TRUST_PROXY: 'false' } });
    try {
      for (let attempt = 1; attempt <= SIGN_IN_LIMITS.address; attempt++) {
        const forged = formClient(direct.url, { 'x-forwarded-for': `10.3.0.${attempt}` });
        const expected = attempt < SIGN_IN_LIMITS.address ? 401 : 429;
        expect((await forged.signIn(`forged-${attempt}@example.com`, 'wrong password')).status).toBe(expected);
      }
    } finally {
      await direct.close();
    }
  });

  it('counts failures in a 15-minute window: spread-out failures never lock', async () => {
    const target = await createTestAccount(t);
    // One address throughout, so that every failure lands on the same (e-mail, address) count.
    const browser = formClient(t.url, { 'x-forwarded-for': '10.1.2.1' });
    for (let attempt = 1; attempt <= 8; attempt++) {
      expect((await browser.signIn(target.adminEmail, 'wrong password')).status).toBe(401);
      clock.advance(4 * 60 * 1000);
      if (attempt % 4 === 0) clock.advance(15 * 60 * 1000);
    }
    expect((await browser.signIn(target.adminEmail, target.adminPassword)).status).toBe(303);
  });

  it('remembers a browser that signed in: a cookie naming the user, stored only as a hash', async () => {
    const target = await createTestAccount(t);
    const browser = formClient(t.url, { 'x-forwarded-for': '10.1.3.1' });
    const res = await browser.signIn(target.adminEmail, target.adminPassword);
    expect(res.status).toBe(303);
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith(`${DEVICE_COOKIE}=`));
    expect(cookie).toMatch(/; Path=\/dashboard\/login(;|$)/);
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; SameSite=Strict/);
    expect(cookie).toMatch(/; Max-Age=31536000/);
    expect(cookie).not.toMatch(/Secure/);
    const value = browser.cookies.get(DEVICE_COOKIE)!;
    expect(value).toMatch(new RegExp(`^${target.userId}\\.[A-Za-z0-9_-]{43}$`));
    const rows = await deviceRows(target.userId);
    expect(rows).toEqual([{ token_hash: hashSecret(value), account_id: target.accountId }]);

    // Signing out keeps it; the next sign-in replaces it with a new one.
    await browser.post('/dashboard/logout', { _csrf: await csrfOf(browser) });
    expect(browser.cookies.get(DEVICE_COOKIE)).toBe(value);
    expect((await browser.signIn(target.adminEmail, target.adminPassword)).status).toBe(303);
    const renewed = browser.cookies.get(DEVICE_COOKIE)!;
    expect(renewed).not.toBe(value);
    expect(await deviceRows(target.userId)).toEqual([
      { token_hash: hashSecret(renewed), account_id: target.accountId },
    ]);
  });

  it('lets a browser that signed in before sign in while its e-mail is attacked from many addresses', {
    timeout: 90_000,
  }, async () => {
    const target = await createTestAccount(t);
    const adminAddress = { 'x-forwarded-for': '10.1.4.1' };
    const admin = formClient(t.url, adminAddress);
    expect((await admin.signIn(target.adminEmail, target.adminPassword)).status).toBe(303);
    await admin.post('/dashboard/logout', { _csrf: await csrfOf(admin) });

    // Someone who knows the e-mail guesses from several addresses, each until it is paused.
    const perAddress = SIGN_IN_LIMITS.emailAtAddress;
    const addresses = Math.ceil(SIGN_IN_LIMITS.emailFromNewBrowsers / perAddress);
    for (let n = 1; n <= addresses; n++) {
      const attacker = formClient(t.url, { 'x-forwarded-for': `10.1.5.${n}` });
      for (let attempt = 1; attempt <= perAddress; attempt++) {
        const res = await attacker.signIn(target.adminEmail, `guess ${n}-${attempt}`);
        expect(res.status, `address ${n}, attempt ${attempt}`).toBe(attempt < perAddress ? 401 : 429);
      }
      // The attacker is throttled: more guesses from there are not even checked.
      expect((await attacker.signIn(target.adminEmail, target.adminPassword)).status).toBe(429);
    }
    // New browsers are paused for this e-mail, from an attacked address and from any other.
    for (const address of ['10.1.5.1', '10.1.5.200']) {
      const stranger = await formClient(t.url, { 'x-forwarded-for': address }).signIn(
        target.adminEmail,
        target.adminPassword,
      );
      expect(stranger.status, address).toBe(429);
      expect(stranger.headers.get('retry-after'), address).toMatch(/^\d+$/);
      expect(stranger.text).toContain('Too many failed sign-in attempts');
    }

    // The admin's own browser signs in: at home, and even from an attacked address.
    expect((await admin.signIn(target.adminEmail, target.adminPassword)).status).toBe(303);
    await admin.post('/dashboard/logout', { _csrf: await csrfOf(admin) });
    adminAddress['x-forwarded-for'] = '10.1.5.1';
    const fromAttacked = await admin.signIn(target.adminEmail, target.adminPassword);
    expect(fromAttacked.status).toBe(303);
    expect(admin.cookies.has('fieldhand_session')).toBe(true);
  });

  it('judges a remembered browser by its own failures, and pauses it when they are too many', async () => {
    const target = await createTestAccount(t);
    const address = { 'x-forwarded-for': '10.1.6.1' };
    const admin = formClient(t.url, address);
    expect((await admin.signIn(target.adminEmail, target.adminPassword)).status).toBe(303);
    await admin.post('/dashboard/logout', { _csrf: await csrfOf(admin) });

    for (let attempt = 1; attempt <= SIGN_IN_LIMITS.device; attempt++) {
      const res = await admin.signIn(target.adminEmail, 'mistyped password');
      expect(res.status).toBe(attempt < SIGN_IN_LIMITS.device ? 401 : 429);
    }
    const paused = await admin.signIn(target.adminEmail, target.adminPassword);
    expect(paused.status).toBe(429);
    expect(paused.headers.get('retry-after')).toBe('900');
    // Those failures were the browser's own: the address and the e-mail are not paused.
    expect((await formClient(t.url, address).signIn(target.adminEmail, target.adminPassword)).status).toBe(303);

    clock.advance(THROTTLE_LOCK_MS + 1000);
    expect((await admin.signIn(target.adminEmail, target.adminPassword)).status).toBe(303);
  });

  it("does not trust another user's browser, a made-up cookie or an expired one", async () => {
    const target = await createTestAccount(t);
    const other = await createTestAccount(t);
    const address = { 'x-forwarded-for': '10.1.7.1' };
    // The target's e-mail is paused at this address for new browsers.
    const attacker = formClient(t.url, address);
    for (let attempt = 1; attempt <= SIGN_IN_LIMITS.emailAtAddress; attempt++) {
      await attacker.signIn(target.adminEmail, 'wrong password');
    }
    expect((await attacker.signIn(target.adminEmail, target.adminPassword)).status).toBe(429);

    // A browser remembered for another user is a new browser for the target's e-mail.
    const colleague = formClient(t.url, address);
    expect((await colleague.signIn(other.adminEmail, other.adminPassword)).status).toBe(303);
    expect(colleague.cookies.has(DEVICE_COOKIE)).toBe(true);
    colleague.cookies.delete('fieldhand_session');
    expect((await colleague.signIn(target.adminEmail, target.adminPassword)).status).toBe(429);

    // A cookie in the right shape that the server never issued is no better.
    const forger = formClient(t.url, address);
    forger.cookies.set(DEVICE_COOKIE, `${target.userId}.${'A'.repeat(43)}`);
    expect((await forger.signIn(target.adminEmail, target.adminPassword)).status).toBe(429);
    forger.cookies.set(DEVICE_COOKIE, 'é'.repeat(70));
    expect((await forger.signIn(target.adminEmail, target.adminPassword)).status).toBe(429);

    // A browser remembered a year ago, unused since, is a new browser again.
    const away = formClient(t.url, { 'x-forwarded-for': '10.1.7.2' });
    expect((await away.signIn(target.adminEmail, target.adminPassword)).status).toBe(303);
    clock.advance(366 * 24 * 60 * 60 * 1000);
    const attackerLater = formClient(t.url, { 'x-forwarded-for': '10.1.7.3' });
    for (let attempt = 1; attempt <= SIGN_IN_LIMITS.emailAtAddress; attempt++) {
      await attackerLater.signIn(target.adminEmail, 'wrong password');
    }
    const stale = formClient(t.url, { 'x-forwarded-for': '10.1.7.3' });
    stale.cookies.set(DEVICE_COOKIE, away.cookies.get(DEVICE_COOKIE)!);
    expect((await stale.signIn(target.adminEmail, target.adminPassword)).status).toBe(429);
  });
});

describe('pages helpers', () => {
  it('escapes everything interpolated into html, keeping nested fragments', () => {
    const name = `<script>alert("x")</script>' onmouseover='x' &amp;`;
    const page = html`<p title="${name}">${name}</p>${html`<b>${'&'}</b>`}${[html`<i>1</i>`, '<2>']}${null}${html`<hr>`}`;
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

async function deviceRows(userId: string) {
  return query<{ token_hash: string; account_id: string }>(
    t.database.sql,
    sql`select token_hash, account_id from login_devices where user_id = ${userId}`,
  );
}

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
