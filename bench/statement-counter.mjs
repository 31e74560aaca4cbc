// Preloaded into the bench's server process (`node --import`) when a benchmark counts the
// statements its requests send: every query a pg client sends (BEGIN and COMMIT included) adds
// one, and `GET /` on BENCH_STATEMENTS_PORT answers the running total. It lives here, not in
// src, so that no production path carries it.
import http from 'node:http';
import { createRequire } from 'node:module';

const pg = createRequire(import.meta.url)('pg');
let statements = 0;
const send = pg.Client.prototype.query;
pg.Client.prototype.query = function countedQuery(...args) {
  statements += 1;
  return send.apply(this, args);
};
http
  .createServer((_, res) => res.end(String(statements)))
  .listen(Number(process.env.BENCH_STATEMENTS_PORT), '127.0.0.1')
  .unref();
