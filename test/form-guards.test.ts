// What the dashboard's and the consent page's forms refuse before trusting a post: CSRF tokens
// of the wrong length or alphabet are the form's normal 403 (never a 500), and a multipart
// upload without a session is answered before its body is read.
import http from 'node:http';
import { beforeAll, describe, expect, it } from 'vitest';
import { query, sql } from '../src/core/db.ts';
import { hashSecret } from '../src/core/ids.ts';
import { startWithAccount, type TestAccount, type TestApp } from './helpers/app.ts';
import { csrfFrom, type FormClient, formClient } from './helpers/forms.ts';
import { REDIRECT_URI, registerApp } from './helpers/oauth.ts';

let t: TestApp;
let acct: TestAccount;
let ip = 0;
const browser = () => formClient(t.url, { 'x-forwarded-for': `10.13.0.${++ip}` });

beforeAll(async () => {
  ({ t, acct } = await startWithAccount({ workers: false }));
  return t.close;
});

async function signedIn(): Promise<{ client: FormClient; csrf: string }> {
  const client = browser();
  expect((await client.signIn(acct.adminEmail, acct.adminPassword)).status).toBe(303);
  const rows = await query<{ csrf_secret: string }>(
    t.database.sql,
    sql`select csrf_secret from sessions where token_hash = ${hashSecret(client.cookies.get('fieldhand_session')!)}`,
  );
  return { client, csrf: rows[0]!.csrf_secret };
}

/** Malformed variants of a real token (43 base64url characters). */
function malformed(token: string): Record<string, string> {
  return {
    // same length in characters, more bytes: what used to make timingSafeEqual throw
    'one non-ASCII character': `é${token.slice(1)}`,
    'non-ASCII only': 'é'.repeat(43),
    'astral characters': `${'😀'.repeat(21)}a`,
    'too long': `${token}A`,
    'far too long': token.repeat(100),
    'too short': token.slice(1),
    empty: '',
    'wrong alphabet': `${token.slice(0, 42)}+`,
    'padding and dots': `${token.slice(0, 41)}.=`,
  };
}

describe('CSRF tokens of the wrong length or alphabet', () => {
  it('are refused by a dashboard form with its 403 page', async () => {
    const { client, csrf } = await signedIn();
    for (const [what, value] of Object.entries(malformed(csrf))) {
      const created = await client.post('/dashboard/settings/integrations/api-keys', {
        _csrf: value,
        name: `Key ${what}`,
        environment: 'test',
      });
      expect(created.status, what).toBe(403);
      expect(created.text, what).toContain('Request refused');
      const switched = await client.post('/dashboard/environment', { _csrf: value, environment: 'live' });
      expect(switched.status, what).toBe(403);
    }
    const keys = await query(t.database.sql, sql`select 1 from api_keys where name like 'Key %'`);
    expect(keys).toEqual([]);
    // the real token still works
    const good = await client.post('/dashboard/settings/integrations/api-keys', {
      _csrf: csrf,
      name: 'Real key',
      environment: 'test',
    });
    expect(good.status).toBe(201);
  });

  it('are refused by the login form, in the field and in the cookie, with its 403 page', async () => {
    const client = browser();
    const page = await client.get('/dashboard/login');
    const token = csrfFrom(page.text);
    const signIn = (csrf: string) =>
      client.post('/dashboard/login', { _csrf: csrf, email: acct.adminEmail, password: acct.adminPassword });
    for (const [what, value] of Object.entries(malformed(token))) {
      const res = await signIn(value);
      expect(res.status, what).toBe(403);
      expect(res.text, what).toContain('This sign-in form expired or did not come from this site.');
      expect(client.cookies.has('fieldhand_session'), what).toBe(false);
    }
    // A malformed cookie, with the page's token or with the very same malformed value.
    for (const [what, value] of Object.entries(malformed(token))) {
      // header values are bytes: characters above U+00FF cannot be in a cookie at all
      if (value === '' || value.length > 1000 || [...value].some((char) => char.charCodeAt(0) > 0xff)) continue;
      for (const posted of [token, value]) {
        client.cookies.set('fieldhand_login_csrf', value);
        const res = await signIn(posted);
        expect(res.status, `cookie ${what}`).toBe(403);
        expect(client.cookies.has('fieldhand_session'), what).toBe(false);
      }
    }
    // the form works again with a fresh, well-formed token
    client.cookies.delete('fieldhand_login_csrf');
    expect((await client.signIn(acct.adminEmail, acct.adminPassword)).status).toBe(303);
  });

  it('are refused by the OAuth consent form with its 403 page, and no code is issued', async () => {
    const app = await registerApp(t, acct);
    const { client } = await signedIn();
    const params = new URLSearchParams({
      client_id: app.clientId,
      redirect_uri: REDIRECT_URI,
      response_type: 'code',
      scope: 'customers:read',
      state: 'xyz',
    });
    const consent = await client.get(`/oauth/authorize?${params}`);
    expect(consent.status).toBe(200);
    const fields = Object.fromEntries(
      [...consent.text.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [m[1], m[2]]),
    ) as Record<string, string>;
    const token = fields._csrf as string;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    for (const [what, value] of Object.entries(malformed(token))) {
      const res = await client.post('/oauth/authorize', { ...fields, _csrf: value, decision: 'approve' });
      expect(res.status, what).toBe(403);
      expect(res.text, what).toContain('Request refused');
      expect(res.location, what).toBeNull();
    }
    const codes = await query(
      t.database.sql,
      sql`select 1 from oauth_authorization_codes where app_id = ${app.clientId}`,
    );
    expect(codes).toEqual([]);
    const approved = await client.post('/oauth/authorize', { ...fields, decision: 'approve' });
    expect(approved.status).toBe(303);
    expect(approved.location).toMatch(/^https:\/\/app\.example\.com\/callback\?code=/);
  });
});

const SIX_MB = 6 * 1024 * 1024;

/**
 * Starts a multipart POST that announces a 6 MB body but sends only its first 64 KiB, then
 * waits for the answer. A server that reads the body before answering never answers.
 */
function startLargeUpload(
  path: string,
  cookie?: string,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; sent: number; ms: number; closed: Promise<void> }> {
  const boundary = 'fieldhand-test-boundary';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="_csrf"\r\n\r\nnot-read\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="logo"; filename="big.png"\r\n` +
      'Content-Type: image/png\r\n\r\n',
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const total = head.length + SIX_MB + tail.length;
  const first = Buffer.concat([head, Buffer.alloc(64 * 1024 - head.length, 0x41)]);
  const url = new URL(path, t.url);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const request = http.request(url, {
      method: 'POST',
      agent: false,
      headers: {
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': String(total),
        'x-forwarded-for': '10.14.0.1',
        ...(cookie ? { cookie } : {}),
      },
    });
    const timer = setTimeout(() => {
      request.destroy();
      reject(new Error('no answer while the upload was held back: the server waited for the body'));
    }, 20_000);
    request.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    request.on('response', (response) => {
      clearTimeout(timer);
      const ms = performance.now() - started;
      const socket = request.socket;
      // The server closes the connection instead of draining the rest of the upload.
      const closed = new Promise<void>((done) => {
        if (!socket || socket.destroyed) return done();
        socket.once('close', () => done());
      });
      response.resume();
      resolve({ status: response.statusCode ?? 0, headers: response.headers, sent: first.length, ms, closed });
    });
    request.write(first);
  });
}

describe('multipart forms without a session', () => {
  it('are answered with the login redirect before the upload is read, and the connection is closed', async () => {
    const app = await registerApp(t, acct);
    const forms = [
      '/dashboard/settings/integrations/oauth-apps',
      `/dashboard/settings/integrations/oauth-apps/${app.clientId}`,
    ];
    for (const path of forms) {
      for (const cookie of [undefined, `fieldhand_session=${'x'.repeat(43)}`]) {
        const res = await startLargeUpload(path, cookie);
        expect(res.status, path).toBe(303);
        expect(res.headers.location, path).toBe('/dashboard/login?next=%2Fdashboard');
        expect(res.headers.connection, path).toBe('close');
        expect(res.sent).toBeLessThan(SIX_MB / 64);
        await res.closed;
      }
    }
  });

  it('are still read when the session is valid (and a 6 MB logo is refused on the form)', async () => {
    const { client, csrf } = await signedIn();
    const form = new FormData();
    form.append('_csrf', csrf);
    form.append('name', 'Big Logo App');
    form.append('redirect_uris', REDIRECT_URI);
    form.append('environment', 'test');
    form.append('client_type', 'confidential');
    form.append('scopes', 'customers:read');
    form.append('logo', new Blob([new Uint8Array(SIX_MB)]), 'big.png');
    const res = await client.postMultipart('/dashboard/settings/integrations/oauth-apps', form);
    expect(res.status).toBe(400);
    expect(res.text).toContain('The logo must be at most 180 KB.');
    expect(res.text).toContain('value="Big Logo App"');
  });
});
