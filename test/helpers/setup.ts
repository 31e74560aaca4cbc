// Factories for the business-setup tests: a zone of its own (fresh ZIPs, so files do not step
// on the demo zones) with one crew member, and a booking in it.
import type { Api } from './http.ts';

let counter = 0;

export const WORKDAY = { open: '08:00', close: '18:00' };
export const MON_SAT = {
  monday: WORKDAY,
  tuesday: WORKDAY,
  wednesday: WORKDAY,
  thursday: WORKDAY,
  friday: WORKDAY,
  saturday: WORKDAY,
  sunday: null,
};

/** Hours with every day closed, as the API answers them. */
export const NO_DAYS = {
  monday: null,
  tuesday: null,
  wednesday: null,
  thursday: null,
  friday: null,
  saturday: null,
  sunday: null,
};

/** A fresh five-digit ZIP no other zone of the run has. */
export function freshZip(): string {
  counter += 1;
  return String(50000 + ((process.pid * 7 + counter) % 40000));
}

export function zoneBody(overrides: Record<string, unknown> = {}) {
  counter += 1;
  return {
    name: `Zone ${counter}`,
    timezone: 'America/New_York',
    zips: [freshZip()],
    industries: ['junk-removal'],
    hours: MON_SAT,
    slot_interval_minutes: 60,
    travel_buffer_minutes: 0,
    lead_time_minutes: 0,
    price_adjustment_percent: 0,
    tax_rate: 0,
    ...overrides,
  };
}

export async function createZone(api: Api, overrides: Record<string, unknown> = {}) {
  const res = await api.post('/v1/zones', zoneBody(overrides));
  if (res.status !== 201) throw new Error(`zone not created: ${JSON.stringify(res.body)}`);
  return res.body as { id: string; name: string; zips: string[] } & Record<string, any>;
}

export async function createStaff(api: Api, zoneIds: string[], overrides: Record<string, unknown> = {}) {
  counter += 1;
  const res = await api.post('/v1/staff', {
    name: `Crew ${counter}`,
    email: `crew${counter}@example.com`,
    zones: zoneIds,
    industries: ['junk-removal'],
    hours: MON_SAT,
    ...overrides,
  });
  if (res.status !== 201) throw new Error(`staff not created: ${JSON.stringify(res.body)}`);
  return res.body as { id: string; name: string } & Record<string, any>;
}
