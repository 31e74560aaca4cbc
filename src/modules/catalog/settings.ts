// Per-environment settings that pricing and bookings read: frequency discounts (percent) and
// the cancellation policy. An environment that never imported a catalog gets the defaults.
import type { Deps } from '../../core/deps.ts';
import type { Tenant } from '../../core/tenant.ts';
import type { CancellationPolicy, Frequency } from '../pricing/index.ts';
import { findSettings } from './catalog.repository.ts';

export interface CatalogSettings {
  frequency_discounts: Partial<Record<Frequency, number>>;
  cancellation_policy: CancellationPolicy;
}

export const DEFAULT_SETTINGS: CatalogSettings = {
  frequency_discounts: { 'one-time': 0, weekly: 0, 'bi-weekly': 0, monthly: 0 },
  cancellation_policy: { free_cancellation_hours: 24, late_cancellation_fee_percent: 50, in_progress_fee_percent: 100 },
};

export function settingsFrom(stored: { frequency_discounts: object; cancellation_policy: object } | null | undefined) {
  if (!stored) return DEFAULT_SETTINGS;
  return {
    frequency_discounts: { ...DEFAULT_SETTINGS.frequency_discounts, ...stored.frequency_discounts },
    cancellation_policy: { ...DEFAULT_SETTINGS.cancellation_policy, ...stored.cancellation_policy },
  } as CatalogSettings;
}

export async function loadCatalogSettings(deps: Deps, tenant: Tenant): Promise<CatalogSettings> {
  return settingsFrom(await findSettings(deps.db, tenant));
}
