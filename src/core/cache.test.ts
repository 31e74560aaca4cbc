import { describe, expect, it } from 'vitest';
import { JsonCache } from './cache.ts';

const tenant = { accountId: 'acct_a', environment: 'test' as const };
const otherTenant = { accountId: 'acct_b', environment: 'test' as const };

describe('JsonCache', () => {
  it('answers only at the version the JSON was written at, and only to its tenant', () => {
    const cache = new JsonCache();
    cache.set(tenant, 'bk_1', '10:20:30', '{"id":"bk_1"}');
    expect(cache.get(tenant, 'bk_1', '10:20:30')).toBe('{"id":"bk_1"}');
    expect(cache.get(tenant, 'bk_1', '11:20:30')).toBeUndefined();
    expect(cache.get(otherTenant, 'bk_1', '10:20:30')).toBeUndefined();
    expect(cache.get({ ...tenant, environment: 'live' }, 'bk_1', '10:20:30')).toBeUndefined();
    // a new version replaces the old one
    cache.set(tenant, 'bk_1', '11:20:30', '{"id":"bk_1","notes":"x"}');
    expect(cache.get(tenant, 'bk_1', '10:20:30')).toBeUndefined();
    expect(cache.get(tenant, 'bk_1', '11:20:30')).toBe('{"id":"bk_1","notes":"x"}');
  });

  it('tells the first time a tenant asks a list from the later times', () => {
    const cache = new JsonCache();
    expect(cache.firstAsked(tenant, '["confirmed",1]')).toBe(true);
    expect(cache.firstAsked(tenant, '["confirmed",1]')).toBe(false);
    expect(cache.firstAsked(otherTenant, '["confirmed",1]')).toBe(true);
    expect(cache.firstAsked(tenant, '["confirmed",2]')).toBe(true);
  });
});
