// Issue 8: GET /v1/customers/:id with an OAuth access token against the same with an API key,
// in one run on PostgreSQL, 50 connections. Target: the token path within 10 % of the key path.
// The two alternate (key, token, key, token) so that a noisy neighbour hits both alike.
import os from 'node:os';
import { query, sql } from '../src/core/db.ts';
import { findActiveAppByClientId } from '../src/modules/oauth/apps.repository.ts';
import { issueAuthorizationCode } from '../src/modules/oauth/authorize.service.ts';
import { createOAuthApp } from '../src/modules/oauth/index.ts';
import {
  benchAccount,
  heading,
  type LoadOptions,
  type LoadResult,
  load,
  seedCustomers,
  startBenchServer,
} from './harness.ts';

const CUSTOMERS = 2000;
const ROUNDS = 5;
const REDIRECT_URI = 'https://bench.example.com/callback';

export default async function run(): Promise<void> {
  heading('oauth: GET /v1/customers/:id, access token vs API key, 50 connections, PostgreSQL');
  const server = await startBenchServer();
  try {
    const account = await benchAccount(server);
    const ids = await seedCustomers(server, account.accountId, CUSTOMERS);

    // a real token, from the real token endpoint
    const { app, client_secret } = await createOAuthApp(server.deps, account.tenant, {
      name: 'Bench App',
      redirectUris: [REDIRECT_URI],
    });
    const row = await findActiveAppByClientId(server.database.sql, app.client_id);
    const users = await query<{ id: string }>(
      server.database.sql,
      sql`select id from users where account_id = ${account.accountId}`,
    );
    const code = await issueAuthorizationCode(
      server.deps,
      { app: row!, redirectUri: REDIRECT_URI, scopes: ['customers:read'], state: undefined, codeChallenge: null },
      users[0]!.id,
    );
    const response = await fetch(`${server.url}/oauth/token`, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: REDIRECT_URI,
        client_id: app.client_id,
        client_secret: client_secret!,
      }),
    });
    const { access_token: accessToken } = (await response.json()) as { access_token: string };

    let n = 0;
    const nextId = () => ids[n++ % ids.length];
    const scenario = (token: string): Partial<LoadOptions> & { url: string } => ({
      url: server.url,
      headers: { authorization: `Bearer ${token}` },
      requests: [{ setupRequest: (req) => ({ ...req, path: `/v1/customers/${nextId()}` }) }],
    });

    await load('warm-up (API key)', { ...scenario(account.key), duration: 3 });
    await load('warm-up (access token)', { ...scenario(accessToken), duration: 3 });
    // short alternating rounds, compared by median: the machine is shared, and a burst of
    // someone else's work then lands on one round of either path rather than on one path
    const key: LoadResult[] = [];
    const token: LoadResult[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      key.push(
        await load(`GET /v1/customers/:id, API key (round ${round})`, { ...scenario(account.key), duration: 6 }),
      );
      token.push(
        await load(`GET /v1/customers/:id, access token (round ${round})`, { ...scenario(accessToken), duration: 6 }),
      );
    }
    const median = (results: LoadResult[]) => {
      const sorted = results.map((each) => each.requestsPerSecond).sort((a, b) => a - b);
      const middle = Math.floor(sorted.length / 2);
      return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
    };
    const ratio = median(token) / median(key);
    console.log(
      `median: API key ${Math.round(median(key))} req/s, access token ${Math.round(median(token))} req/s; ` +
        `token/key ${ratio.toFixed(3)} (target >= 0.90); load average ${os.loadavg()[0]?.toFixed(1)}`,
    );
  } finally {
    await server.close();
  }
}
