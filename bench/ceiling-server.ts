// The ceiling of this stack, as its own process like the real server: a bare Fastify route doing
// one primary-key SELECT through a pool of the server's size. No auth, no validation, no
// serialisation schema. `GET /:table/:id` on CEILING_DATABASE_URL, listening on CEILING_PORT.
import Fastify from 'fastify';
import { openDatabase, query, sql } from '../src/core/db.ts';

const TABLES = new Set(['customers', 'zones']);
const database = await openDatabase({ databaseUrl: process.env.CEILING_DATABASE_URL, poolSize: 20 });
const server = Fastify();
server.get('/:table/:id', async (request, reply) => {
  const { table, id } = request.params as { table: string; id: string };
  if (!TABLES.has(table)) return reply.code(404).send({});
  const rows = await query(database.sql, sql`select * from ${sql.identifier(table)} where id = ${id}`);
  return rows[0] ?? {};
});
await server.listen({ port: Number(process.env.CEILING_PORT), host: '127.0.0.1' });
process.on('SIGTERM', () => {
  void server.close().then(() => database.close().then(() => process.exit(0)));
});
