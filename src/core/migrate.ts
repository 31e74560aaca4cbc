// Forward-only plain-SQL migrations from migrations/*.sql, applied in name order, all in one
// transaction under an advisory lock so that several instances starting at once apply them once.
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { query, type Sql, sql, transaction } from './db.ts';

const MIGRATIONS_DIR = fileURLToPath(new URL('../../migrations/', import.meta.url));
const MIGRATION_LOCK = 727_001;

export async function migrate(db: Sql): Promise<string[]> {
  const files = fs
    .readdirSync(MIGRATIONS_DIR)
    .filter((name) => name.endsWith('.sql'))
    .sort();
  return transaction(db, async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${MIGRATION_LOCK})`);
    await tx.execute(sql`create table if not exists schema_migrations (
      version text primary key,
      applied_at timestamptz not null default now()
    )`);
    const done = new Set(
      (await query<{ version: string }>(tx, sql`select version from schema_migrations`)).map((row) => row.version),
    );
    const applied: string[] = [];
    for (const file of files) {
      const version = file.replace(/\.sql$/, '');
      if (done.has(version)) continue;
      for (const statement of splitStatements(fs.readFileSync(MIGRATIONS_DIR + file, 'utf8'))) {
        await tx.execute(sql.raw(statement));
      }
      await tx.execute(sql`insert into schema_migrations (version) values (${version})`);
      applied.push(version);
    }
    return applied;
  });
}

/**
 * Splits a script into statements at top-level semicolons (outside quotes, dollar-quoted
 * bodies and comments): PGlite's extended protocol takes one statement per query.
 */
export function splitStatements(script: string): string[] {
  const statements: string[] = [];
  let current = '';
  let i = 0;
  while (i < script.length) {
    const char = script[i] as string;
    const rest = script.slice(i);
    if (rest.startsWith('--')) {
      const end = script.indexOf('\n', i);
      i = end === -1 ? script.length : end + 1;
      continue;
    }
    if (rest.startsWith('/*')) {
      const end = script.indexOf('*/', i + 2);
      i = end === -1 ? script.length : end + 2;
      continue;
    }
    const dollar = /^\$[A-Za-z_]*\$/.exec(rest);
    if (dollar) {
      const end = script.indexOf(dollar[0], i + dollar[0].length);
      const stop = end === -1 ? script.length : end + dollar[0].length;
      current += script.slice(i, stop);
      i = stop;
      continue;
    }
    if (char === "'" || char === '"') {
      let j = i + 1;
      while (j < script.length && !(script[j] === char && script[j + 1] !== char)) j += script[j] === char ? 2 : 1;
      current += script.slice(i, j + 1);
      i = j + 1;
      continue;
    }
    if (char === ';') {
      if (current.trim()) statements.push(current.trim());
      current = '';
    } else {
      current += char;
    }
    i++;
  }
  if (current.trim()) statements.push(current.trim());
  return statements;
}
