// The ceiling of this stack, as its own process like the real server: a bare Fastify route doing
// one primary-key SELECT through `pg` (no query builder, no auth, no validation, no serialisation
// schema), and the same route through the project's query layer (drizzle over `openDatabase`),
// each with a pool of the server's size.
//   GET /bare/:table/:id    pg.Pool.query, the stack's ceiling
//   GET /layer/:table/:id   the query layer: what it costs on its own
// on CEILING_DATABASE_URL, listening on CEILING_PORT.
import Fastify from 'fastify';
import pg from 'pg';
import { openDatabase, query, sql } from '../src/core/db.ts';

const TABLES = new Set(['customers', 'zones']);
const url = process.env.CEILING_DATABASE_URL;
const database = await openDatabase({ databaseUrl: url, poolSize: 20 });
const pool = new pg.Pool({ connectionString: url, max: 20 });
const server = Fastify();
server.get('/bare/:table/:id', async (request, reply) => {
  const { table, id } = request.params as { table: string; id: string };
  if (!TABLES.has(table)) return reply.code(404).send({});
  const result = await pool.query(`select * from ${pg.escapeIdentifier(table)} where id = $1`, [id]);
  return result.rows[0] ?? {};
});
server.get('/layer/:table/:id', async (request, reply) => {
  const { table, id } = request.params as { table: string; id: string };
  if (!TABLES.has(table)) return reply.code(404).send({});
  const rows = await query(database.sql, sql`select * from ${sql.identifier(table)} where id = ${id}`);
  return rows[0] ?? {};
});
await server.listen({ port: Number(process.env.CEILING_PORT), host: '127.0.0.1' });
process.on('SIGTERM', () => {
  void server.close().then(() => Promise.all([database.close(), pool.end()]).then(() => process.exit(0)));
});
