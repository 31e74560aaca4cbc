// Issue 3: GET /v1/customers/:id and search over 100,000 customers in 10 accounts, against the
// ceiling of this stack: a bare Fastify route doing one primary-key SELECT through the same pool.
import { query, sql } from '../src/core/db.ts';
import { benchAccount, heading, load, measureCeiling, startBenchServer } from './harness.ts';

const ACCOUNTS = 10;
const PER_ACCOUNT = 10_000;

export default async function run(): Promise<void> {
  heading(`customers: ${ACCOUNTS * PER_ACCOUNT} customers in ${ACCOUNTS} accounts, 50 connections, PostgreSQL`);
  const server = await startBenchServer();
  try {
    const accounts = [];
    for (let i = 0; i < ACCOUNTS; i++) accounts.push(await benchAccount(server));
    for (const account of accounts) {
      await query(
        server.database.sql,
        sql`insert into customers (id, account_id, environment, first_name, last_name, email, phone)
            select 'cust_' || substr(md5(random()::text || g::text), 1, 24), ${account.accountId}, 'test',
                   (array['Olivia','Liam','Emma','Noah','Ava','Elijah','Sophia','James','Mia','Lucas'])[1 + g % 10],
                   (array['Smith','Johnson','Williams','Brown','Jones','Garcia','Miller','Davis','Rodriguez','Martinez',
                          'Hernandez','Lopez','Gonzalez','Wilson','Anderson','Thomas','Taylor','Moore','Jackson','Martin'])[1 + (g / 10) % 20]
                     || '-' || (g % 997)::text,
                   lower((array['Olivia','Liam','Emma','Noah','Ava','Elijah','Sophia','James','Mia','Lucas'])[1 + g % 10]) || '.' || g
                     || '@' || (array['gmail.com','yahoo.com','outlook.com','icloud.com','fastmail.com'])[1 + g % 5],
                   '+1415' || lpad(g::text, 7, '0')
            from generate_series(1, ${PER_ACCOUNT}) as g`,
      );
    }
    await query(server.database.sql, sql`analyze customers`);
    const target = accounts[3]!;
    const ids = (
      await query<{ id: string }>(
        server.database.sql,
        sql`select id from customers where account_id = ${target.accountId} limit 1000`,
      )
    ).map((row) => row.id);
    const headers = { authorization: `Bearer ${target.key}` };
    let n = 0;
    const nextId = () => ids[n++ % ids.length];

    // the ceiling: a bare route doing one primary-key SELECT, in its own process like the server
    const ceiling = await measureCeiling(server, () => `/customers/${nextId()}`);
    const byId = await load('GET /v1/customers/:id', {
      url: server.url,
      headers,
      requests: [{ setupRequest: (req) => ({ ...req, path: `/v1/customers/${nextId()}` }) }],
    });
    const terms = ['hernandez-42', 'olivia smith', 'emma.1234', '4150004321', 'garcia-99'];
    let t = 0;
    const search = await load('GET /v1/customers?search=…', {
      url: server.url,
      headers,
      requests: [
        {
          setupRequest: (req) => ({
            ...req,
            path: `/v1/customers?search=${encodeURIComponent(terms[t++ % terms.length]!)}`,
          }),
        },
      ],
    });
    // Issue 16: search at 10 connections, one kind of term at a time, `total` checked against SQL.
    const kinds = [
      { kind: 'name', term: 'olivia smith', like: 'olivia smith' },
      { kind: 'e-mail', term: 'liam.1231@', like: 'liam.1231@' },
      { kind: 'phone digits', term: '(415) 000-4321', like: '4150004321' },
    ];
    const searchP99: string[] = [];
    for (const { kind, term, like } of kinds) {
      const path = `/v1/customers?search=${encodeURIComponent(term)}`;
      const res = await fetch(`${server.url}${path}&per_page=1`, { headers });
      const answered = ((await res.json()) as { pagination: { total: number } }).pagination.total;
      const [counted] = await query<{ total: number }>(
        server.database.sql,
        sql`select count(*)::int as total from customers
            where account_id = ${target.accountId} and environment = 'test' and search_text like ${`%${like}%`}`,
      );
      const figures = await load(`  search by ${kind} (${term}), 10 connections`, {
        url: `${server.url}${path}`,
        headers,
        connections: 10,
      });
      searchP99.push(
        `${kind} ${figures.p99} ms (total ${answered}${answered === counted?.total ? ' = SQL count' : `, SQL count ${counted?.total}: WRONG`})`,
      );
    }
    console.log(`GET by id / ceiling: ${(byId.requestsPerSecond / ceiling.bare).toFixed(2)} (target >= 0.6)`);
    console.log(`search p99 at 50 connections: ${search.p99} ms`);
    console.log(`search p99 at 10 connections: ${searchP99.join('; ')} (target < 20 ms each)`);
  } finally {
    await server.close();
  }
}
