// Registering OAuth apps (the services the dashboard uses), connected apps, and the CLI.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { query, sql } from '../src/core/db.ts';
import {
  createOAuthApp,
  deleteOAuthApp,
  getOAuthApp,
  listOAuthApps,
  listUserGrants,
  revokeGrant,
  rotateOAuthAppSecret,
  updateOAuthApp,
} from '../src/modules/oauth/index.ts';
import { createTestAccount, startWithAccount, type TestAccount, type TestApp } from './helpers/app.ts';
import { bearerGet, exchangeCode, issueCode, REDIRECT_URI, refresh, registerApp } from './helpers/oauth.ts';

let t: TestApp;
let acct: TestAccount;

beforeAll(async () => {
  ({ t, acct } = await startWithAccount());
  return t.close;
});

describe('OAuth apps', () => {
  it('registers a confidential app whose secret is shown once and stored as a hash', async () => {
    const created = await createOAuthApp(t.app.deps, acct.tenant('live'), {
      name: '  Dispatch Pro ',
      description: 'Dispatching',
      redirectUris: [REDIRECT_URI, 'http://localhost:5173/cb'],
      scopes: ['bookings:write', 'bookings:read'],
    });
    expect(created.app).toMatchObject({
      client_id: expect.stringMatching(/^app_[0-9A-Za-z]{24}$/),
      name: 'Dispatch Pro',
      environment: 'live',
      client_type: 'confidential',
      redirect_uris: [REDIRECT_URI, 'http://localhost:5173/cb'],
      scopes: ['bookings:read', 'bookings:write'],
      secret_last4: created.client_secret?.slice(-4),
    });
    expect(created.client_secret).toMatch(/^svc_cs_[0-9A-Za-z]{40}$/);
    const rows = await query(t.database.sql, sql`select * from oauth_apps where id = ${created.app.client_id}`);
    expect(JSON.stringify(rows)).not.toContain(created.client_secret);
    // listing shows it in its environment only, never with the secret
    const live = await listOAuthApps(t.app.deps, acct.tenant('live'));
    expect(live.map((app) => app.client_id)).toContain(created.app.client_id);
    expect(JSON.stringify(live)).not.toContain(created.client_secret);
    expect((await listOAuthApps(t.app.deps, acct.tenant('test'))).map((app) => app.client_id)).not.toContain(
      created.app.client_id,
    );
  });

  it('refuses bad registrations', async () => {
    const base = { name: 'X', redirectUris: [REDIRECT_URI] };
    const attempts = [
      { ...base, redirectUris: [] },
      { ...base, redirectUris: ['http://app.example.com/cb'] },
      { ...base, redirectUris: ['javascript:alert(1)'] },
      { ...base, name: ' ' },
      { ...base, scopes: ['everything'] },
      { ...base, logoUrl: 'https://cdn.example.com/logo.png' },
      { ...base, logoUrl: 'data:image/svg+xml;base64,PHN2Zz4=' },
    ];
    for (const input of attempts) {
      await expect(createOAuthApp(t.app.deps, acct.tenant(), input), JSON.stringify(input)).rejects.toMatchObject({
        code: 'parameter_invalid',
      });
    }
  });

  it('rotates the secret (the old one stops working) and updates redirect URIs', async () => {
    const app = await registerApp(t, acct);
    const code = await issueCode(t, app, acct.userId);
    const rotated = await rotateOAuthAppSecret(t.app.deps, acct.tenant(), app.clientId);
    expect(rotated.client_secret).not.toBe(app.clientSecret);
    expect((await exchangeCode(t, app, code)).status).toBe(401);
    expect((await exchangeCode(t, { ...app, clientSecret: rotated.client_secret }, code)).status).toBe(200);

    const updated = await updateOAuthApp(t.app.deps, acct.tenant(), app.clientId, {
      redirectUris: ['https://new.example.com/cb'],
    });
    expect(updated.redirect_uris).toEqual(['https://new.example.com/cb']);
    // another environment's tenant cannot see or change it
    await expect(getOAuthApp(t.app.deps, acct.tenant('live'), app.clientId)).rejects.toMatchObject({
      code: 'resource_not_found',
    });
    const publicApp = await registerApp(t, acct, { public: true });
    await expect(rotateOAuthAppSecret(t.app.deps, acct.tenant(), publicApp.clientId)).rejects.toMatchObject({
      code: 'invalid_state_transition',
    });
  });

  it('lists a user’s connected apps and revokes one with all its tokens', async () => {
    const app = await registerApp(t, acct, { name: 'Connected One' });
    const tokens = (await exchangeCode(t, app, await issueCode(t, app, acct.userId))).body;
    const grants = await listUserGrants(t.app.deps, acct.tenant(), acct.userId);
    const grant = grants.find((each) => each.app.client_id === app.clientId);
    expect(grant).toMatchObject({ app: { name: 'Connected One' }, scopes: ['customers:read'], revoked_at: null });
    await expect(
      revokeGrant(t.app.deps, acct.tenant(), { grantId: grant?.id as string, userId: 'usr_someoneelse' }),
    ).rejects.toMatchObject({ code: 'resource_not_found' });
    await revokeGrant(t.app.deps, acct.tenant(), { grantId: grant?.id as string, userId: acct.userId });
    expect((await bearerGet(t, tokens.access_token, '/v1/customers')).status).toBe(401);
    const refreshed = await refresh(t, app, tokens.refresh_token);
    expect(refreshed.body.error).toBe('invalid_grant');
    const after = await listUserGrants(t.app.deps, acct.tenant(), acct.userId);
    expect(after.map((each) => each.id)).not.toContain(grant?.id);
  });

  it('deleting an app of another account is refused', async () => {
    const app = await registerApp(t, acct);
    const stranger = await createTestAccount(t);
    await expect(deleteOAuthApp(t.app.deps, stranger.tenant(), app.clientId)).rejects.toMatchObject({
      code: 'resource_not_found',
    });
  });
});

describe('fieldhand oauth-apps', () => {
  const run = promisify(execFile);
  let dataDir: string;

  beforeAll(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fieldhand-oauth-cli-'));
  });
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  async function cli(...args: string[]) {
    try {
      const { stdout } = await run('node', ['bin/fieldhand.js', ...args], {
        // vitest sets BASE_URL=/ (Vite's); the CLI must see the real defaults
        env: { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: dataDir, LOG_LEVEL: 'silent' },
      });
      return { code: 0, json: JSON.parse(stdout), stderr: '' };
    } catch (error) {
      const failure = error as { code: number; stderr: string };
      return { code: failure.code, json: null, stderr: failure.stderr };
    }
  }

  it('creates, lists and deletes apps', { timeout: 300_000 }, async () => {
    const account = await cli(
      'accounts',
      'create',
      '--name',
      'CLI Co',
      '--admin-email',
      'cli@example.com',
      '--admin-password',
      'long enough password',
    );
    expect(account.stderr).toBe('');
    expect(account.code).toBe(0);
    const id = account.json.account_id as string;
    const createApp = (env: string, name: string, ...more: string[]) =>
      cli('oauth-apps', 'create', '--account', id, '--env', env, '--name', name, ...more);

    const confidential = await createApp(
      'test',
      'Planner',
      '--redirect-uri',
      'https://planner.example.com/cb',
      '--redirect-uri',
      'http://localhost:3001/cb',
      '--scope',
      'bookings:read',
      '--scope',
      'customers:read',
    );
    expect(confidential.code).toBe(0);
    expect(Object.keys(confidential.json).sort()).toEqual(['client_id', 'client_secret']);
    expect(confidential.json.client_secret).toMatch(/^svc_cs_/);

    const spa = await createApp('live', 'Phone', '--redirect-uri', 'com.example.phone:/cb', '--public');
    expect(spa.code).toBe(0);
    expect(Object.keys(spa.json)).toEqual(['client_id']);

    const all = await cli('oauth-apps', 'list', '--account', id);
    expect(all.json.map((app: { client_id: string }) => app.client_id).sort()).toEqual(
      [confidential.json.client_id, spa.json.client_id].sort(),
    );
    const testOnly = await cli('oauth-apps', 'list', '--account', id, '--env', 'test');
    expect(testOnly.json).toHaveLength(1);
    expect(testOnly.json[0]).toMatchObject({
      scopes: ['bookings:read', 'customers:read'],
      client_type: 'confidential',
    });

    expect((await cli('oauth-apps', 'delete', '--id', spa.json.client_id)).json).toEqual({
      client_id: spa.json.client_id,
      deleted: true,
    });
    const bad = await createApp('test', 'Bad', '--redirect-uri', 'http://example.com/cb');
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('redirect');
    const missing = await createApp('test', 'No URI');
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain('--redirect-uri');
  });
});
