// Per-environment settings: frequency discounts (percent), the cancellation policy, the business
// details shown to customers and the currency. Pricing and bookings read the discounts and policy
// on every request; an environment that never set them gets the defaults, and the business name
// and currency fall back to the account's.
import { type Deps, inTransaction } from '../../core/deps.ts';
import { AppError, invalidParameter } from '../../core/errors.ts';
import { checkInput } from '../../core/http/validation.ts';
import type { Tenant } from '../../core/tenant.ts';
import type { CancellationPolicy, Frequency } from '../pricing/index.ts';
import { findSettings } from './catalog.repository.ts';
import { atCatalogVersion } from './catalog-cache.ts';
import { atMostThreeDecimals } from './catalog-file.ts';
import * as repository from './settings.repository.ts';
import { type SettingsView, UpdateSettingsBody } from './settings.schemas.ts';

export interface CatalogSettings {
  frequency_discounts: Partial<Record<Frequency, number>>;
  cancellation_policy: CancellationPolicy;
}

export const DEFAULT_SETTINGS: CatalogSettings = {
  frequency_discounts: { 'one-time': 0, weekly: 0, 'bi-weekly': 0, monthly: 0 },
  cancellation_policy: { free_cancellation_hours: 24, late_cancellation_fee_percent: 50, in_progress_fee_percent: 100 },
};

export function settingsFrom(
  stored: { frequency_discounts: object | null; cancellation_policy: object | null } | null | undefined,
) {
  if (!stored) return DEFAULT_SETTINGS;
  return {
    frequency_discounts: { ...DEFAULT_SETTINGS.frequency_discounts, ...stored.frequency_discounts },
    cancellation_policy: { ...DEFAULT_SETTINGS.cancellation_policy, ...stored.cancellation_policy },
  } as CatalogSettings;
}

/** The discounts and policy bookings apply, through the catalog cache (catalog-cache.ts). */
export function loadCatalogSettings(deps: Deps, tenant: Tenant): Promise<CatalogSettings> {
  return atCatalogVersion(deps, tenant, '["settings"]', async () => settingsFrom(await findSettings(deps.db, tenant)));
}

function settingsView(record: repository.SettingsRecord): SettingsView {
  const { frequency_discounts, cancellation_policy } = settingsFrom(record);
  const business = record.business ?? {};
  return {
    object: 'settings',
    business: {
      name: business.name ?? record.account_name,
      email: business.email ?? null,
      phone: business.phone ?? null,
    },
    currency: record.currency ?? record.account_currency,
    frequency_discounts: {
      'one-time': frequency_discounts['one-time'] ?? 0,
      weekly: frequency_discounts.weekly ?? 0,
      'bi-weekly': frequency_discounts['bi-weekly'] ?? 0,
      monthly: frequency_discounts.monthly ?? 0,
    },
    cancellation_policy,
  };
}

export async function getSettings(deps: Deps, tenant: Tenant): Promise<SettingsView> {
  const record = await repository.findSettingsRecord(deps.db, tenant);
  if (!record) throw new Error(`no account ${tenant.accountId}`);
  return settingsView(record);
}

/** The business as customers see it (invoices, e-mails): name and currency with their fallbacks. */
export async function businessProfile(deps: Deps, tenant: Tenant) {
  const { business, currency } = await getSettings(deps, tenant);
  return { ...business, currency };
}

/**
 * Ids of invoices issued in the environment (up to 5; none = the currency may still change).
 * The invoices module answers it: the catalog cannot import invoices (they import the catalog),
 * so app.ts and the dashboard hand it in.
 */
export type IssuedInvoices = (deps: Deps, tenant: Tenant) => Promise<string[]>;

const CURRENCIES = new Set(Intl.supportedValuesOf('currency').map((code) => code.toLowerCase()));

function checkPercentages(body: UpdateSettingsBody) {
  const percentages = [
    ...Object.entries(body.frequency_discounts ?? {}).map(([key, value]) => [`frequency_discounts.${key}`, value]),
    ...Object.entries(body.cancellation_policy ?? {})
      .filter(([key]) => key.endsWith('_percent'))
      .map(([key, value]) => [`cancellation_policy.${key}`, value]),
  ] as [string, number | undefined][];
  for (const [param, value] of percentages) {
    if (value !== undefined && !atMostThreeDecimals(value)) {
      throw invalidParameter(param, `Invalid ${param}: must have at most 3 decimals.`);
    }
  }
}

/**
 * Merges the changes key by key (nested objects too) under the settings row's lock. Discounts
 * and the policy apply to prices from the next request; bookings keep theirs. The currency is
 * fixed once the environment has an invoice (409 resource_in_use).
 */
export async function updateSettings(
  deps: Deps,
  tenant: Tenant,
  input: UpdateSettingsBody,
  issuedInvoices: IssuedInvoices,
): Promise<SettingsView> {
  const body = checkInput(UpdateSettingsBody, input);
  checkPercentages(body);
  if (body.currency !== undefined && !CURRENCIES.has(body.currency)) {
    throw invalidParameter('currency', `Invalid currency: ${body.currency} is not an ISO 4217 currency code.`);
  }
  return inTransaction(deps, async (deps) => {
    await repository.lockSettingsRecord(deps.db, tenant, DEFAULT_SETTINGS as unknown as Record<string, object>);
    const record = await repository.findSettingsRecord(deps.db, tenant);
    if (!record) throw new Error(`no account ${tenant.accountId}`);
    const current = settingsView(record);
    if (body.currency !== undefined && body.currency !== current.currency) {
      const invoices = await issuedInvoices(deps, tenant);
      if (invoices.length > 0) {
        throw new AppError(
          'resource_in_use',
          `The currency is fixed: this environment has invoices in ${current.currency} (${invoices.join(', ')}).`,
          { param: 'currency' },
        );
      }
    }
    const stored = settingsFrom(record);
    await repository.saveSettingsRecord(
      deps.db,
      tenant,
      {
        frequency_discounts: { ...stored.frequency_discounts, ...body.frequency_discounts },
        cancellation_policy: { ...stored.cancellation_policy, ...body.cancellation_policy },
        business: { ...record.business, ...body.business },
        currency: body.currency ?? record.currency,
      },
      deps.clock.now(),
    );
    return getSettings(deps, tenant);
  });
}
