import { type SQL, sql } from './db.ts';

export type Environment = 'test' | 'live';
export const ENVIRONMENTS: readonly Environment[] = ['test', 'live'];

/** Whose data a request touches: one account, one of its two environments. */
export interface Tenant {
  accountId: string;
  environment: Environment;
}

/**
 * The one tenant filter every repository puts in its WHERE clauses. The tenant is required by
 * type, so a query cannot lose its filter by leaving an argument out; `alias` qualifies the
 * columns when the statement joins tables (`tenantIs(tenant, 'b')` → `b.account_id = …`).
 */
export function tenantIs(tenant: Tenant, alias?: string): SQL {
  const prefix = alias ? sql`${sql.identifier(alias)}.` : sql``;
  return sql`${prefix}account_id = ${tenant.accountId} and ${prefix}environment = ${tenant.environment}`;
}
