// SQL of the environment's settings (catalog_settings, one row per account and environment,
// written by Settings and by catalog import), with the account's name and currency they fall
// back on.
import { query, queryOne, type Sql, sql } from '../../core/db.ts';
import { type Tenant, tenantIs } from '../../core/tenant.ts';

export interface SettingsRecord {
  frequency_discounts: Record<string, number> | null;
  cancellation_policy: Record<string, number> | null;
  business: { name?: string; email?: string | null; phone?: string | null } | null;
  currency: string | null;
  account_name: string;
  account_currency: string;
}

/** The settings (null columns when the environment has none yet) and the account's fallbacks. */
export function findSettingsRecord(db: Sql, tenant: Tenant) {
  return queryOne<SettingsRecord>(
    db,
    sql`select s.frequency_discounts, s.cancellation_policy, s.business, s.currency,
               a.name as account_name, a.currency as account_currency
        from accounts a left join catalog_settings s on s.account_id = a.id and ${tenantIs(tenant, 's')}
        where a.id = ${tenant.accountId}`,
  );
}

export async function saveSettingsRecord(
  tx: Sql,
  tenant: Tenant,
  settings: { frequency_discounts: object; cancellation_policy: object; business: object; currency: string | null },
  now: Date,
) {
  await query(
    tx,
    sql`insert into catalog_settings
          (account_id, environment, frequency_discounts, cancellation_policy, business, currency, updated_at)
        values (${tenant.accountId}, ${tenant.environment}, ${JSON.stringify(settings.frequency_discounts)}::jsonb,
                ${JSON.stringify(settings.cancellation_policy)}::jsonb, ${JSON.stringify(settings.business)}::jsonb,
                ${settings.currency}, ${now})
        on conflict (account_id, environment) do update
          set frequency_discounts = excluded.frequency_discounts, cancellation_policy = excluded.cancellation_policy,
              business = excluded.business, currency = excluded.currency, updated_at = excluded.updated_at`,
  );
}

/**
 * Locks the environment's settings row (made with `defaults` first if it has none), so that
 * concurrent changes merge one after the other instead of overwriting each other.
 */
export async function lockSettingsRecord(tx: Sql, tenant: Tenant, defaults: Record<string, object>) {
  await query(
    tx,
    sql`insert into catalog_settings (account_id, environment, frequency_discounts, cancellation_policy)
        values (${tenant.accountId}, ${tenant.environment}, ${JSON.stringify(defaults.frequency_discounts)}::jsonb,
                ${JSON.stringify(defaults.cancellation_policy)}::jsonb)
        on conflict (account_id, environment) do nothing`,
  );
  await query(tx, sql`select 1 from catalog_settings where ${tenantIs(tenant)} for update`);
}
