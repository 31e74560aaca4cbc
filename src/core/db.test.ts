// Which failures mean "the database is unreachable right now" (a 503 and a retry), checked on
// real driver errors where a test can cause them, and on the codes PostgreSQL documents.
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../test/helpers/database.ts';
import {
  DatabaseUnreachableError,
  isDatabaseUnavailable,
  openDatabase,
  reconnectDelay,
  sql,
  unavailableReason,
} from './db.ts';

async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('isDatabaseUnavailable', () => {
  it('sees a refused connection through the wrapping, and says why in a few words', async () => {
    const port = await closedPort();
    const failure = await openDatabase({ databaseUrl: `postgres://fieldhand:pw@127.0.0.1:${port}/x` }).catch(
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(DatabaseUnreachableError);
    expect((failure as Error).message).toBe(`cannot reach the database at 127.0.0.1:${port}: connection refused`);
    expect(isDatabaseUnavailable(failure)).toBe(true);
    expect(unavailableReason(failure)).toBe('connection refused');
  });

  it('is false for errors of the statement itself', async () => {
    const database = await openTestDatabase();
    try {
      const syntax = await database.sql.execute(sql`selec 1`).catch((error: unknown) => error);
      const cast = await database.sql.execute(sql`select 'x'::integer`).catch((error: unknown) => error);
      expect(isDatabaseUnavailable(syntax)).toBe(false);
      expect(isDatabaseUnavailable(cast)).toBe(false);
    } finally {
      await database.close();
    }
    expect(isDatabaseUnavailable(new Error('boom'))).toBe(false);
    expect(isDatabaseUnavailable({ code: '23505' })).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
  });

  it('knows the server-side codes and pg’s own words for a lost connection', () => {
    const wrapped = (cause: object) => Object.assign(new Error('Failed query: select 1\nparams: '), { cause });
    for (const code of ['57P01', '57P02', '57P03', '08006', '08001', '53300', 'ECONNRESET', 'ETIMEDOUT']) {
      expect(isDatabaseUnavailable(wrapped({ code, message: 'x' })), code).toBe(true);
    }
    for (const message of [
      'Connection terminated unexpectedly',
      'Connection terminated due to connection timeout',
      'Client has encountered a connection error and is not queryable',
      'timeout exceeded when trying to connect',
    ]) {
      expect(isDatabaseUnavailable(wrapped(new Error(message))), message).toBe(true);
    }
    // a host with several addresses fails with one error per address
    const aggregate = Object.assign(new AggregateError([Object.assign(new Error('x'), { code: 'ECONNREFUSED' })]), {});
    expect(isDatabaseUnavailable(aggregate)).toBe(true);
    expect(unavailableReason(wrapped(aggregate))).toBe('connection refused');
    expect(unavailableReason(wrapped({ code: '57P03', message: 'the database system is starting up' }))).toBe(
      'the database system is starting up',
    );
  });
});

describe('reconnectDelay', () => {
  it('backs off from 250 ms and never waits more than 2 s, so work resumes soon after an outage', () => {
    expect([1, 2, 3, 4, 5, 50].map(reconnectDelay)).toEqual([250, 500, 1000, 2000, 2000, 2000]);
  });
});
