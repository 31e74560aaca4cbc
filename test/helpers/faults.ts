// Helpers for the database-fault tests: a write load that records every answer, the server's
// backends by application_name, and checks on what the server logged.
import { createHash } from 'node:crypto';
import { expect } from 'vitest';
import { type Database, query, type Sql, sql, textArray } from '../../src/core/db.ts';
import { randomBase62 } from '../../src/core/ids.ts';
import type { Tenant } from '../../src/core/tenant.ts';
import { createAccount, createApiKey } from '../../src/modules/accounts/index.ts';
import { seedDemoEnvironment } from '../../src/modules/demo/index.ts';
import { createWebhook } from '../../src/modules/webhooks/index.ts';
import { depsFor } from './app.ts';
import { demoCatalog, slots, sofa, ZIPS } from './bookings.ts';
import { databaseEnv, openTestDatabase, type TestDatabase } from './database.ts';
import { type Api, type ApiResponse, apiClient } from './http.ts';
import { startSmtpSink } from './smtp.ts';
import { type Receiver, startReceiver, waitFor } from './webhooks.ts';

/** A name for one server's connections, so a test finds (and terminates) only those. */
export function applicationName(label: string): string {
  return `fieldhand_${label}_${randomBase62(8).toLowerCase()}`;
}

export function withApplicationName(databaseUrl: string, name: string): string {
  const url = new URL(databaseUrl);
  url.searchParams.set('application_name', name);
  return url.toString();
}

/**
 * DATABASE_URL (and DATABASE_DIRECT_URL through PgBouncer) of `database` with every connection
 * named `name`: the LISTEN session on the direct path too.
 */
export function namedDatabaseEnv(database: TestDatabase, name: string): Record<string, string> {
  return Object.fromEntries(
    Object.entries(databaseEnv(database)).map(([key, url]) => [key, withApplicationName(url, name)]),
  );
}

export interface Backend {
  pid: number;
  state: string | null;
  query: string;
  wait_event_type: string | null;
}

export function backendsOf(db: Sql, name: string): Promise<Backend[]> {
  return query<Backend>(
    db,
    sql`select pid, state, query, wait_event_type from pg_stat_activity where application_name = ${name} and pid <> pg_backend_pid()`,
  );
}

/** pg_terminate_backend on every connection of the server named `name`; returns how many. */
export async function terminateBackends(db: Sql, name: string): Promise<number> {
  const rows = await query<{ terminated: boolean }>(
    db,
    sql`select pg_terminate_backend(pid) as terminated from pg_stat_activity
        where application_name = ${name} and pid <> pg_backend_pid()`,
  );
  return rows.filter((row) => row.terminated).length;
}

/** An account with the demo catalog, a test key and a webhook endpoint for every event. */
export async function seedAccount(database: Database, webhookUrl: string) {
  const deps = depsFor(database);
  const adminEmail = `faults-${randomBase62(10).toLowerCase()}@example.com`;
  const { account_id } = await createAccount(
    deps,
    { name: 'Faults Co', adminEmail, adminPassword: 'correct horse battery staple' },
    seedDemoEnvironment,
  );
  const tenant = { accountId: account_id, environment: 'test' as const };
  const key = await createApiKey(deps, tenant);
  const endpoint = await createWebhook(deps, tenant, {
    url: webhookUrl,
    events: ['*'],
  });
  return { tenant, key: key.key, webhookSecret: endpoint.secret, adminEmail };
}

/**
 * What a fault test stands on: a webhook receiver answering 200 after `receiverDelayMs`, an
 * SMTP sink (unless `smtp: false`), a database of its own and an account seeded on it. Each is
 * closed with the file's `cleanups`.
 */
export async function faultScene(
  cleanups: (() => Promise<void>)[],
  options: { receiverDelayMs: number; smtp?: boolean },
) {
  const receiver = await startReceiver(() => ({ status: 200, delayMs: options.receiverDelayMs }));
  cleanups.push(() => receiver.close());
  const smtp = options.smtp === false ? undefined : await startSmtpSink();
  if (smtp) cleanups.push(() => smtp.close());
  const database = await openTestDatabase();
  cleanups.push(() => database.close());
  const seeded = await seedAccount(database, `${receiver.url}/hook`);
  return { receiver, smtp, database, db: database.sql, seeded };
}

/** The settings of a server process under a fault test (`database`: its DATABASE_URLs): workers on, logs at info. */
export function faultServerEnv(
  database: Record<string, string>,
  poolSize: number,
  smtpUrl?: string,
): Record<string, string> {
  return {
    ...database,
    DATABASE_POOL_SIZE: String(poolSize),
    LOG_LEVEL: 'info',
    RUN_WORKERS: 'true',
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    RATE_LIMIT_MAX: '100000',
    ...(smtpUrl ? { SMTP_URL: smtpUrl } : {}),
  };
}

export interface Outcome {
  kind: 'customer' | 'booking' | 'invoice';
  status: number;
  body: any;
  requestId: string | null;
  retryAfter: string | null;
  at: number;
  /** The e-mail address written (customers), to look for in the logs. */
  email?: string;
}

/** Writers creating customers, bookings and invoices until stopped; every answer is kept. */
export async function startWriters(baseUrl: string, apiKey: string, concurrency = 6) {
  const api = apiClient(baseUrl, apiKey);
  const catalog = await demoCatalog(api);
  const openSlots = await futureSlots(api);
  // bookings and invoices need customers that exist before any fault
  const customers: { id: string; addressId: string }[] = [];
  for (let i = 0; i < 6; i++) {
    const res = await api.post('/v1/customers', customerBody());
    if (res.status !== 201) throw new Error(`customer not created: ${res.status} ${JSON.stringify(res.body)}`);
    customers.push({ id: res.body.id, addressId: res.body.addresses[0].id });
  }
  const outcomes: Outcome[] = [];
  const emails: string[] = [];
  let stopped = false;
  let counter = 0;

  const one = async (): Promise<Outcome> => {
    counter += 1;
    const kinds = ['customer', 'booking', 'invoice'] as const;
    const kind = openSlots.length > 0 ? kinds[counter % 3]! : kinds[(counter % 2) * 2]!;
    const customer = customers[counter % customers.length]!;
    let res: ApiResponse;
    let email: string | undefined;
    if (kind === 'customer') {
      const body = customerBody();
      email = body.email;
      emails.push(email);
      res = await api.post('/v1/customers', body);
    } else if (kind === 'booking') {
      res = await api.post('/v1/bookings', {
        customer_id: customer.id,
        address_id: customer.addressId,
        industry: 'junk-removal',
        configuration: sofa(catalog),
        scheduled_at: openSlots.shift(),
      });
    } else {
      res = await api.post('/v1/invoices', {
        customer_id: customer.id,
        line_items: [{ description: 'Standard clean', quantity: 1, unit_price: 12000 }],
      });
    }
    return {
      kind,
      status: res.status,
      body: res.body,
      requestId: res.headers.get('request-id'),
      retryAfter: res.headers.get('retry-after'),
      at: Date.now(),
      email,
    };
  };

  const loops = Array.from({ length: concurrency }, async () => {
    while (!stopped) {
      try {
        outcomes.push(await one());
      } catch (error) {
        // the server did not answer at all (a connection reset): recorded as status 0
        outcomes.push({
          kind: 'customer',
          status: 0,
          body: String(error),
          requestId: null,
          retryAfter: null,
          at: Date.now(),
        });
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  });

  return {
    api,
    catalog,
    outcomes,
    emails,
    async stop() {
      stopped = true;
      await Promise.all(loops);
    },
  };
}

let customerCounter = 0;
function customerBody() {
  customerCounter += 1;
  const tag = `${process.pid}-${Date.now()}-${customerCounter}`;
  return {
    first_name: 'Fay',
    last_name: `Fault${customerCounter}`,
    email: `fault-${tag}@example.com`,
    address: { street: `${customerCounter} Main St`, city: 'New York', state: 'NY', zip: ZIPS.manhattan },
  };
}

/** Open 20-minute junk-removal slots in Manhattan over the next weeks, each offered once. */
async function futureSlots(api: Api): Promise<string[]> {
  const found: string[] = [];
  for (let day = 2; day < 40 && found.length < 600; day++) {
    const date = new Date(Date.now() + day * 86_400_000).toISOString().slice(0, 10);
    for (const slot of await slots(api, 'junk-removal', date, 20)) found.push(slot.starts_at);
  }
  return found;
}

/** Every answer is a success, a 503 in the contract's shape with Retry-After, or a lost slot race. */
export function expectOnlyCleanFailures(outcomes: Outcome[]) {
  const unexpected = outcomes.filter((outcome) => {
    if (outcome.status >= 200 && outcome.status < 300) return false;
    if (outcome.status === 409 && outcome.body?.error?.code === 'slot_unavailable') return false;
    return !(
      outcome.status === 503 &&
      outcome.body?.error?.type === 'api_error' &&
      outcome.body?.error?.code === 'service_unavailable' &&
      outcome.retryAfter !== null &&
      outcome.requestId?.startsWith('req_')
    );
  });
  expect(unexpected.map((o) => `${o.kind} ${o.status} ${JSON.stringify(o.body).slice(0, 200)}`)).toEqual([]);
}

/** The ids acknowledged with a 2xx that are not in the database. */
export async function missingAcknowledged(db: Sql, outcomes: Outcome[]): Promise<string[]> {
  const acknowledged = outcomes.filter((o) => o.status >= 200 && o.status < 300).map((o) => o.body.id as string);
  const found = await query<{ id: string }>(
    db,
    sql`select id from customers where id = any(${textArray(acknowledged)})
        union all select id from bookings where id = any(${textArray(acknowledged)})
        union all select id from invoices where id = any(${textArray(acknowledged)})`,
  );
  const present = new Set(found.map((row) => row.id));
  return acknowledged.filter((id) => !present.has(id));
}

export interface LogLine {
  level: number;
  time: number;
  msg?: string;
  [key: string]: unknown;
}

export function parseLogs(lines: string[]): LogLine[] {
  return lines
    .filter((line) => line.startsWith('{'))
    .map((line) => {
      try {
        return JSON.parse(line) as LogLine;
      } catch {
        return { level: 0, time: 0, msg: line };
      }
    });
}

/** Nothing secret in the log: no key, no key hash, no webhook secret, no SQL parameters. */
export function expectNoSecrets(
  lines: string[],
  secrets: { apiKey: string; webhookSecret?: string; emails: string[] },
) {
  const text = lines.join('\n');
  const keyHash = createHash('sha256').update(secrets.apiKey).digest('hex');
  expect(text).not.toContain(secrets.apiKey);
  expect(text).not.toContain(keyHash);
  expect(text).not.toContain('whsec_');
  if (secrets.webhookSecret) expect(text).not.toContain(secrets.webhookSecret);
  expect(text).not.toContain('params:');
  const leaked = secrets.emails.filter((email) => text.includes(email));
  expect(leaked).toEqual([]);
}

/** Warnings and errors logged within [from, to]. */
export function problemsBetween(lines: string[], from: number, to: number): LogLine[] {
  return parseLogs(lines).filter((line) => line.level >= 40 && line.time >= from && line.time <= to);
}

/** One kind of failure (same message) at most once per 10 s: the most of one kind in any 10 s. */
export function mostOfOneKindPer10s(lines: LogLine[]): number {
  const byKind = new Map<string, number[]>();
  for (const line of lines) {
    const kind = `${line.msg}`;
    byKind.set(kind, [...(byKind.get(kind) ?? []), line.time]);
  }
  let most = 0;
  for (const times of byKind.values()) {
    times.sort((a, b) => a - b);
    for (let i = 0; i < times.length; i++) {
      const within = times.filter((time) => time >= times[i]! && time < times[i]! + 10_000).length;
      most = Math.max(most, within);
    }
  }
  return most;
}

/**
 * Waits until every event of the tenant has reached the receiver (at least once) and every
 * e-mail is sent. Real waiting: the server process's own workers do the work.
 */
export async function everythingQueuedGoesOut(
  db: Sql,
  tenant: Tenant,
  receiver: Receiver,
  { emailsWithinMs = 60_000, everyMs = 200 } = {},
): Promise<void> {
  const events = await query<{ id: string }>(db, sql`select id from events where account_id = ${tenant.accountId}`);
  await waitFor(
    () => {
      const received = new Set(receiver.received.map((r) => r.headers['webhook-id']));
      return events.every((event) => received.has(event.id));
    },
    { timeoutMs: 60_000, everyMs: 200, what: 'every event delivered' },
  );
  const unsent = () =>
    query<{ id: string; status: string; attempts: number; next_attempt_at: string; last_error: string | null }>(
      db,
      sql`select id, status, attempts, next_attempt_at, last_error from emails
          where account_id = ${tenant.accountId} and status <> 'sent' order by id`,
    );
  try {
    await waitFor(async () => (await unsent()).length === 0, {
      timeoutMs: emailsWithinMs,
      everyMs,
      what: 'every e-mail sent',
    });
  } catch (error) {
    // say where the stragglers are (lease, back-off, failed) so that a failure can be diagnosed
    throw new Error(`${(error as Error).message}; unsent: ${JSON.stringify(await unsent())}`);
  }
}
