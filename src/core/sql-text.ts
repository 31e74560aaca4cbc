// A statement's text and parameters, for pg. Drizzle's own walk (`dialect.sqlToQuery`) asks of
// every chunk which of a dozen kinds it is with `is()`, which follows the prototype chain each
// time, and builds an object per chunk before joining them: on a booking's few hundred chunks that
// was about a fifteenth of the server's CPU (docs/performance.md). The statements this app writes
// hold only a handful of kinds, walked here directly; a statement with anything else (a table or
// column object, a list, inlined parameters) is handed to drizzle's walk unchanged.
import { Name, Param, Placeholder, SQL, StringChunk } from 'drizzle-orm';

export interface StatementText {
  sql: string;
  params: unknown[];
}

/** `statement` as PostgreSQL text with `$n` parameters, exactly as drizzle's pg dialect writes it. */
export function statementText(statement: SQL, dialect: { sqlToQuery(statement: SQL): StatementText }): StatementText {
  const parts: string[] = [];
  const params: unknown[] = [];
  return walk(statement, parts, params) ? { sql: parts.join(''), params } : dialect.sqlToQuery(statement);
}

/** false: a chunk this walk does not know; the caller falls back to drizzle. */
function walk(statement: SQL, parts: string[], params: unknown[]): boolean {
  // set by `.inlineParams()`, which this app never calls (drizzle writes the values into the text)
  if ((statement as unknown as { shouldInlineParams: boolean }).shouldInlineParams) return false;
  for (const chunk of statement.queryChunks as unknown[]) {
    if (chunk instanceof StringChunk) {
      const value = chunk.value;
      parts.push(value.length === 1 ? (value[0] as string) : value.join(''));
    } else if (chunk instanceof SQL) {
      if (!walk(chunk, parts, params)) return false;
    } else if (chunk === undefined) {
      // drizzle writes nothing for it
    } else if (chunk === null || typeof chunk !== 'object' || chunk instanceof Date) {
      params.push(chunk);
      parts.push(`$${params.length}`);
    } else if (chunk instanceof Param) {
      if (chunk.value instanceof Placeholder) return false;
      const value = chunk.value === null ? null : chunk.encoder.mapToDriverValue(chunk.value);
      if (value instanceof SQL) return false;
      params.push(value);
      parts.push(`$${params.length}`);
    } else if (chunk instanceof Name) {
      parts.push(`"${chunk.value.replace(/"/g, '""')}"`);
    } else {
      return false;
    }
  }
  return true;
}
