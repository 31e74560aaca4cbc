// Coupons through /v1/coupons (CONTRACT §11): the catalog file's rules, codes unique among the
// environment's live coupons ignoring case (the database decides), the discount fixed after the
// first redemption, DELETE archiving, pricing reading coupons live, bookings keeping theirs.
import { describe, expect, it } from 'vitest';
import { exportCatalog, importCatalog } from '../src/modules/catalog/index.ts';
import { createTestAccount } from './helpers/app.ts';
import { mondayInNewYork, sofaPickup } from './helpers/bookings.ts';

const scene = mondayInNewYork();

let counter = 0;
function uniqueCode(prefix = 'SPRING') {
  counter += 1;
  return `${prefix}${counter}`;
}

function price(code: string | undefined, frequency = 'one-time') {
  return scene.acct.api.post('/v1/services/pricing', {
    industry: 'junk-removal',
    zip: '10001',
    configuration: scene.sofa(frequency),
    ...(code ? { coupon_code: code } : {}),
  });
}

describe('coupons API', () => {
  it('creates, reads, lists, updates and archives a coupon', async () => {
    const code = uniqueCode();
    const created = await scene.acct.api.post('/v1/coupons', {
      code,
      description: 'Spring offer',
      percent_off: 12.5,
      valid_until: '2026-12-31T23:59:59Z',
      max_redemptions: 50,
      industries: ['junk-removal'],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^coupon_[0-9A-Za-z]{24}$/),
      object: 'coupon',
      code,
      description: 'Spring offer',
      percent_off: 12.5,
      amount_off: null,
      valid_from: null,
      valid_until: '2026-12-31T23:59:59.000Z',
      max_redemptions: 50,
      times_redeemed: 0,
      industries: ['junk-removal'],
      is_active: true,
      created_at: scene.clock.now().toISOString(),
    });
    const id = created.body.id;
    expect((await scene.acct.api.get(`/v1/coupons/${id}`)).body).toEqual(created.body);

    const list = await scene.acct.api.get('/v1/coupons?per_page=100');
    expect(list.status).toBe(200);
    expect(list.body.data.map((c: { code: string }) => c.code)).toEqual(expect.arrayContaining([code, 'WELCOME10']));
    expect(list.body.pagination).toMatchObject({ page: 1, per_page: 100 });
    const only = await scene.acct.api.get(`/v1/coupons?ids=${id}&fields=id,code`);
    expect(only.body.data).toEqual([{ id, code }]);

    const patched = await scene.acct.api.patch(`/v1/coupons/${id}`, { description: 'Spring!', industries: null });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body).toMatchObject({ description: 'Spring!', industries: null, percent_off: 12.5 });
    // before any redemption the discount may still change, one kind for the other too
    const switched = await scene.acct.api.patch(`/v1/coupons/${id}`, { percent_off: null, amount_off: 1500 });
    expect(switched.status, JSON.stringify(switched.body)).toBe(200);
    expect(switched.body).toMatchObject({ percent_off: null, amount_off: 1500 });

    const deleted = await scene.acct.api.delete(`/v1/coupons/${id}`);
    expect(deleted.status).toBe(204);
    for (const res of [
      await scene.acct.api.get(`/v1/coupons/${id}`),
      await scene.acct.api.patch(`/v1/coupons/${id}`, { description: 'x' }),
      await scene.acct.api.delete(`/v1/coupons/${id}`),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('resource_not_found');
    }
    const after = await scene.acct.api.get('/v1/coupons?per_page=100');
    expect(after.body.data.map((c: { id: string }) => c.id)).not.toContain(id);
    const priced = await price(code);
    expect(priced.status).toBe(400);
    expect(priced.body.error).toMatchObject({ code: 'invalid_coupon', param: 'coupon_code' });
  });

  it('refuses a code in use ignoring case (409), and reuses the code of a deleted coupon', async () => {
    const code = uniqueCode('Summer');
    const first = await scene.acct.api.post('/v1/coupons', { code, amount_off: 500 });
    expect(first.status).toBe(201);
    const clash = await scene.acct.api.post('/v1/coupons', { code: code.toUpperCase(), percent_off: 5 });
    expect(clash.status).toBe(409);
    expect(clash.body.error).toMatchObject({ code: 'resource_already_exists', param: 'code' });
    const demo = await scene.acct.api.post('/v1/coupons', { code: 'welcome10', percent_off: 5 });
    expect(demo.status).toBe(409);
    // a rename onto a taken code too
    const renamed = await scene.acct.api.patch(`/v1/coupons/${first.body.id}`, { code: 'save20' });
    expect(renamed.status).toBe(409);
    expect(renamed.body.error).toMatchObject({ code: 'resource_already_exists', param: 'code' });

    expect((await scene.acct.api.delete(`/v1/coupons/${first.body.id}`)).status).toBe(204);
    const again = await scene.acct.api.post('/v1/coupons', { code: code.toLowerCase(), percent_off: 5 });
    expect(again.status, JSON.stringify(again.body)).toBe(201);
    expect(again.body.id).not.toBe(first.body.id);

    // two at once: the unique index lets exactly one through
    const racing = uniqueCode('RACE');
    const results = await Promise.all(
      [1, 2, 3, 4].map(() => scene.acct.api.post('/v1/coupons', { code: racing, percent_off: 5 })),
    );
    expect(results.map((res) => res.status).sort()).toEqual([201, 409, 409, 409]);
  });

  it('prices with a new coupon on the next request; its discount is fixed after the first redemption', async () => {
    const code = uniqueCode('NEW');
    const unknown = await price(code);
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.code).toBe('invalid_coupon');

    const created = await scene.acct.api.post('/v1/coupons', { code, amount_off: 1000 });
    expect(created.status).toBe(201);
    const plain = await price(undefined);
    const priced = await price(code);
    expect(priced.status).toBe(200);
    expect(priced.body.discounts).toContainEqual(expect.objectContaining({ type: 'coupon', code, amount: 1000 }));
    expect(priced.body.total).toBeLessThan(plain.body.total);

    const booked = await sofaPickup(scene.acct.api, '2026-06-03', { couponCode: code });
    expect(booked.pricing.discount).toBe(priced.body.discount);
    expect((await scene.acct.api.get(`/v1/coupons/${created.body.id}`)).body.times_redeemed).toBe(1);

    const changed = await scene.acct.api.patch(`/v1/coupons/${created.body.id}`, { amount_off: 2000 });
    expect(changed.status).toBe(409);
    expect(changed.body.error).toMatchObject({ code: 'resource_in_use', param: 'amount_off' });
    expect(changed.body.error.message).toMatch(/make a new coupon/i);
    const toPercent = await scene.acct.api.patch(`/v1/coupons/${created.body.id}`, {
      amount_off: null,
      percent_off: 10,
    });
    expect(toPercent.status).toBe(409);
    // the same value, and the other fields, may still be sent
    const same = await scene.acct.api.patch(`/v1/coupons/${created.body.id}`, {
      amount_off: 1000,
      description: 'kept',
    });
    expect(same.status).toBe(200);
    const below = await scene.acct.api.patch(`/v1/coupons/${created.body.id}`, { max_redemptions: 1 });
    expect(below.status).toBe(200);
    expect((await price(code)).body.error).toMatchObject({ code: 'invalid_coupon' }); // used up
    expect((await scene.acct.api.get(`/v1/coupons/${created.body.id}`)).body.amount_off).toBe(1000);

    // archived: the booking keeps its discount, also when re-priced by its own PATCH
    expect((await scene.acct.api.delete(`/v1/coupons/${created.body.id}`)).status).toBe(204);
    const kept = await scene.acct.api.get(`/v1/bookings/${booked.id}`);
    expect(kept.body.pricing).toEqual(booked.pricing);
    expect(kept.body.coupon_code).toBe(code);
    const repriced = await scene.acct.api.patch(`/v1/bookings/${booked.id}`, { notes: 'Side door' });
    expect(repriced.status, JSON.stringify(repriced.body)).toBe(200);
    expect(repriced.body.pricing.discounts).toContainEqual(expect.objectContaining({ type: 'coupon', amount: 1000 }));
  });

  it('answers bad input with 400 naming the field, and changes nothing', async () => {
    const before = (await scene.acct.api.get('/v1/coupons?per_page=100')).body.pagination.total;
    const cases: [Record<string, unknown>, string, string][] = [
      [{ code: 'BOTH', percent_off: 10, amount_off: 100 }, 'percent_off', 'parameter_invalid'],
      [{ code: 'NONE' }, 'percent_off', 'parameter_invalid'],
      [{ code: 'ZERO', percent_off: 0 }, 'percent_off', 'parameter_invalid'],
      [{ code: 'OVER', percent_off: 100.5 }, 'percent_off', 'parameter_invalid'],
      [{ code: 'DECIMALS', percent_off: 10.0005 }, 'percent_off', 'parameter_invalid'],
      [{ code: 'CENTS', amount_off: 10.5 }, 'amount_off', 'parameter_invalid'],
      [{ code: 'NOCENTS', amount_off: 0 }, 'amount_off', 'parameter_invalid'],
      [{ code: 'a b', percent_off: 5 }, 'code', 'parameter_invalid'],
      [{ percent_off: 5 }, 'code', 'missing_required_field'],
      [{ code: 'EXTRA', percent_off: 5, colour: 'red' }, 'colour', 'parameter_unknown'],
      [
        { code: 'WINDOW', percent_off: 5, valid_from: '2026-07-01T00:00:00Z', valid_until: '2026-06-01T00:00:00Z' },
        'valid_until',
        'parameter_invalid',
      ],
      [{ code: 'BADDATE', percent_off: 5, valid_from: '2026-02-30T00:00:00Z' }, 'valid_from', 'parameter_invalid'],
      [
        { code: 'INDUSTRY', percent_off: 5, industries: ['junk-removal', 'pool-care'] },
        'industries[1]',
        'parameter_invalid',
      ],
      [{ code: 'MAXRED', percent_off: 5, max_redemptions: 0 }, 'max_redemptions', 'parameter_invalid'],
    ];
    for (const [body, param, code] of cases) {
      const res = await scene.acct.api.post('/v1/coupons', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error, JSON.stringify(body)).toMatchObject({ code, param });
    }
    const target = (await scene.acct.api.post('/v1/coupons', { code: uniqueCode('PATCHME'), percent_off: 5 })).body;
    const patches: [Record<string, unknown>, string][] = [
      [{ amount_off: 100 }, 'percent_off'],
      [{ percent_off: null }, 'percent_off'],
      [{ valid_from: '2030-01-01T00:00:00Z', valid_until: '2029-01-01T00:00:00Z' }, 'valid_until'],
      [{ industries: ['nope'] }, 'industries[0]'],
      [{ times_redeemed: 3 }, 'times_redeemed'],
    ];
    for (const [body, param] of patches) {
      const res = await scene.acct.api.patch(`/v1/coupons/${target.id}`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.param, JSON.stringify(body)).toBe(param);
    }
    expect((await scene.acct.api.get(`/v1/coupons/${target.id}`)).body).toEqual(target);
    expect((await scene.acct.api.get('/v1/coupons?per_page=100')).body.pagination.total).toBe(before + 1);
  });

  it('keeps coupons to their account and environment', async () => {
    const mine = (await scene.acct.api.post('/v1/coupons', { code: uniqueCode('MINE'), percent_off: 5 })).body;
    const other = await createTestAccount(scene.t);
    for (const api of [scene.acct.live, other.api, other.live]) {
      expect((await api.get(`/v1/coupons/${mine.id}`)).status).toBe(404);
      expect((await api.patch(`/v1/coupons/${mine.id}`, { description: 'x' })).status).toBe(404);
      expect((await api.delete(`/v1/coupons/${mine.id}`)).status).toBe(404);
      const list = await api.get(`/v1/coupons?per_page=100`);
      expect(list.body.data.map((c: { id: string }) => c.id)).not.toContain(mine.id);
      expect((await api.get(`/v1/coupons?ids=${mine.id}`)).body.data).toEqual([]);
    }
    // the same code is free in the other environment and the other account
    expect((await scene.acct.live.post('/v1/coupons', { code: mine.code, percent_off: 5 })).status).toBe(201);
    expect((await other.api.post('/v1/coupons', { code: mine.code, percent_off: 5 })).status).toBe(201);
    expect((await scene.acct.api.get(`/v1/coupons/${mine.id}`)).body).toEqual(mine);
  });

  it('still imports a catalog file: dropped coupons are archived and codes move between coupons', async () => {
    const tenant = scene.acct.tenant();
    const deps = scene.t.app.deps;
    const file = await exportCatalog(deps, tenant);
    const dropped = (await scene.acct.api.post('/v1/coupons', { code: uniqueCode('DROP'), percent_off: 5 })).body;
    // the file names WELCOME10's id with SAVE20's code and the other way round, and drops `dropped`
    const welcome = file.coupons.find((c) => c.code === 'WELCOME10')!;
    const save = file.coupons.find((c) => c.code === 'SAVE20')!;
    [welcome.code, save.code] = [save.code, welcome.code];
    // a coupon whose code is the dropped one's, named by the id of an archived coupon
    file.coupons.push({ id: dropped.id, code: dropped.code.toLowerCase(), percent_off: 7 });
    await importCatalog(deps, tenant, JSON.stringify(file));
    const list = (await scene.acct.api.get('/v1/coupons?per_page=100')).body.data as { id: string; code: string }[];
    expect(list.find((c) => c.id === welcome.id)?.code).toBe('SAVE20');
    expect(list.find((c) => c.id === save.id)?.code).toBe('WELCOME10');
    expect(list.find((c) => c.id === dropped.id)?.code).toBe(dropped.code.toLowerCase());
  });
});
