import { beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/core/clock.ts';
import { query, sql } from '../src/core/db.ts';
import { exportCatalog, importCatalog } from '../src/modules/catalog/index.ts';
import { createTestAccount, startWithAccount, type TestAccount, type TestApp } from './helpers/app.ts';

// Monday 2026-06-01, 08:00 in New York
const clock = new ManualClock('2026-06-01T12:00:00Z');
let t: TestApp;
let acct: TestAccount;

beforeAll(async () => {
  ({ t, acct } = await startWithAccount({ clock }, { demo: true }));
  return t.close;
});

async function extraIds(slug: string): Promise<Record<string, string>> {
  const res = await acct.api.get(`/v1/services/industries/${slug}/extras`);
  return Object.fromEntries(res.body.data.map((e: { id: string; name: string }) => [e.name, e.id]));
}

async function productIds(slug: string): Promise<Record<string, string>> {
  const res = await acct.api.get(`/v1/services/industries/${slug}/products`);
  const products = res.body.categories.flatMap((c: { products: { id: string; name: string }[] }) => c.products);
  return Object.fromEntries(products.map((p: { id: string; name: string }) => [p.name, p.id]));
}

describe('services catalog', () => {
  it('lists the three active demo industries', async () => {
    const res = await acct.api.get('/v1/services/industries');
    expect(res.status).toBe(200);
    expect(
      res.body.data.map((i: { slug: string; configuration_type: string }) => [i.slug, i.configuration_type]),
    ).toEqual([
      ['residential-cleaning', 'room_based'],
      ['junk-removal', 'item_based'],
      ['carpet-cleaning', 'section_based'],
    ]);
    expect(res.body.data[0]).toEqual({
      id: expect.stringMatching(/^ind_[0-9A-Za-z]{24}$/),
      name: 'Residential Cleaning',
      slug: 'residential-cleaning',
      description: expect.any(String),
      icon: 'sparkles',
      configuration_type: 'room_based',
      is_active: true,
    });
  });

  it('lists products by category and extras of both price types; an unknown slug is 404', async () => {
    const products = await acct.api.get('/v1/services/industries/junk-removal/products');
    expect(products.status).toBe(200);
    expect(products.body.industry).toBe('junk-removal');
    expect(products.body.categories.map((c: { slug: string }) => c.slug)).toEqual([
      'furniture',
      'appliances',
      'truck-loads',
    ]);
    expect(products.body.categories[0].id).toMatch(/^pcat_/);
    expect(products.body.categories[0].products[0]).toEqual({
      id: expect.stringMatching(/^prod_/),
      name: 'Sofa',
      base_price: 8900,
      description: '',
      in_catalog: true,
      minutes: 20,
    });
    const extras = await acct.api.get('/v1/services/industries/carpet-cleaning/extras');
    expect(extras.status).toBe(200);
    expect(extras.body.data.map((e: { price_type: string }) => e.price_type)).toEqual([
      'per_unit',
      'per_unit',
      'flat',
      'flat',
    ]);
    expect(extras.body.data[0]).toMatchObject({
      id: expect.stringMatching(/^extra_/),
      unit_label: 'room',
      price: 1500,
    });

    for (const path of ['/v1/services/industries/window-washing/products', '/v1/services/industries/nope/extras']) {
      const missing = await acct.api.get(path);
      expect(missing.status).toBe(404);
      expect(missing.body.error.code).toBe('resource_not_found');
    }
  });

  it('keeps environments apart: live has its own catalog with its own ids', async () => {
    const test = await acct.api.get('/v1/services/industries');
    const live = await acct.live.get('/v1/services/industries');
    expect(live.body.data.map((i: { slug: string }) => i.slug)).toEqual(
      test.body.data.map((i: { slug: string }) => i.slug),
    );
    expect(live.body.data[0].id).not.toBe(test.body.data[0].id);
    const plain = await createTestAccount(t);
    expect((await plain.api.get('/v1/services/industries')).body).toEqual({ data: [] });
    const foreign = await plain.api.get('/v1/services/industries/junk-removal/products');
    expect(foreign.status).toBe(404);
  });

  it('requires authentication', async () => {
    const res = await fetch(`${t.url}/v1/services/industries`);
    expect(res.status).toBe(401);
  });
});

describe('availability', () => {
  const path = (query: string) => `/v1/services/availability?${query}`;

  it('offers two-hour slots in the zone covering the ZIP, in local time, with UTC instants', async () => {
    const res = await acct.api.get(path('zip=94110&industry=carpet-cleaning&date=2026-06-02'));
    expect(res.status).toBe(200);
    expect(res.body.zone).toEqual({
      id: expect.stringMatching(/^zone_/),
      name: 'San Francisco',
      timezone: 'America/Los_Angeles',
    });
    expect(res.body.date).toBe('2026-06-02');
    expect(res.body.fully_booked).toBe(false);
    expect(res.body.available_slots).toHaveLength(9);
    expect(res.body.available_slots[0]).toEqual({
      start: '08:00',
      end: '10:00',
      label: '8:00 AM - 10:00 AM',
      starts_at: '2026-06-02T15:00:00.000Z',
      ends_at: '2026-06-02T17:00:00.000Z',
    });
    const longer = await acct.api.get(path('zip=94110&industry=carpet-cleaning&date=2026-06-02&duration=240'));
    expect(longer.body.available_slots.at(-1)).toMatchObject({
      start: '14:00',
      end: '18:00',
      label: '2:00 PM - 6:00 PM',
    });
  });

  it('answers zone null and no slots outside every zone, and no slots on Sunday or past dates', async () => {
    const outside = await acct.api.get(path('zip=60601&industry=junk-removal&date=2026-06-02'));
    expect(outside.status).toBe(200);
    expect(outside.body).toEqual({ date: '2026-06-02', zone: null, available_slots: [], fully_booked: false });
    const sunday = await acct.api.get(path('zip=10001&industry=junk-removal&date=2026-06-07'));
    expect(sunday.body).toMatchObject({ available_slots: [], fully_booked: false });
    expect(sunday.body.zone.name).toBe('Manhattan');
    const past = await acct.api.get(path('zip=10001&industry=junk-removal&date=2026-05-29'));
    expect(past.body.available_slots).toEqual([]);
  });

  it('applies the lead time today', async () => {
    clock.set('2026-06-02T13:30:00Z'); // 09:30 in New York
    try {
      const res = await acct.api.get(path('zip=10002&industry=residential-cleaning&date=2026-06-02'));
      expect(res.body.available_slots[0].start).toBe('12:00');
    } finally {
      clock.set('2026-06-01T12:00:00Z');
    }
  });

  it('refuses a missing zip, a bad date, a bad duration and an unknown industry', async () => {
    const cases: [string, number, string, string][] = [
      ['industry=junk-removal&date=2026-06-02', 400, 'missing_required_field', 'zip'],
      ['zip=10001&date=2026-06-02', 400, 'missing_required_field', 'industry'],
      ['zip=10001&industry=junk-removal', 400, 'missing_required_field', 'date'],
      ['zip=10001&industry=junk-removal&date=tomorrow', 400, 'parameter_invalid', 'date'],
      ['zip=10001&industry=junk-removal&date=2026-02-30', 400, 'parameter_invalid', 'date'],
      ['zip=10001&industry=junk-removal&date=2026-06-02&duration=0', 400, 'parameter_invalid', 'duration'],
      ['zip=10001&industry=junk-removal&date=2026-06-02&duration=abc', 400, 'parameter_invalid', 'duration'],
      ['zip=10001&industry=window-washing&date=2026-06-02', 400, 'parameter_invalid', 'industry'],
    ];
    for (const [query, status, code, param] of cases) {
      const res = await acct.api.get(path(query));
      expect([query, res.status, res.body.error?.code, res.body.error?.param]).toEqual([query, status, code, param]);
    }
  });
});

describe('pricing', () => {
  it('prices a room-based cleaning with zone adjustment, extras, frequency discount, coupon and tax', async () => {
    const extras = await extraIds('residential-cleaning');
    const res = await acct.api.post('/v1/services/pricing', {
      industry: 'residential-cleaning',
      zip: '10001',
      configuration: {
        bedrooms: 2,
        bathrooms: 1,
        frequency: 'bi-weekly',
        extras: [extras['Inside the fridge'], { id: extras['Interior windows'], quantity: 3 }],
      },
      coupon_code: 'welcome10',
    });
    expect(res.status).toBe(200);
    // base 6000 + 2 x 2000 + 2500 = 12500; Manhattan +10 % = 1250; extras 3500 + 3 x 500
    expect(res.body).toEqual({
      industry: 'residential-cleaning',
      zone: { id: expect.stringMatching(/^zone_/), name: 'Manhattan' },
      currency: 'usd',
      base_price: 12500,
      zone_adjustment: 1250,
      extras: [
        { id: extras['Inside the fridge'], name: 'Inside the fridge', quantity: 1, unit_price: 3500, total: 3500 },
        { id: extras['Interior windows'], name: 'Interior windows', quantity: 3, unit_price: 500, total: 1500 },
      ],
      extras_total: 5000,
      subtotal: 18750,
      discounts: [
        { type: 'frequency', description: 'Bi-weekly discount (15%)', amount: 2813 }, // 2812.5 rounds up
        { type: 'coupon', code: 'WELCOME10', description: 'Coupon WELCOME10 (10% off)', amount: 1594 }, // 1593.7
      ],
      discount: 4407,
      tax_rate: 8.875,
      tax: 1273, // 14343 x 8.875 % = 1272.94
      total: 15616,
      estimated_duration: 30 + 60 + 30 + 30 + 30,
    });
  });

  it('prices item-based and section-based configurations; SAVE20 takes 2000 cents after the frequency discount', async () => {
    const junk = await productIds('junk-removal');
    const items = await acct.api.post('/v1/services/pricing', {
      industry: 'junk-removal',
      zip: '94103',
      configuration: { items: [{ product_id: junk.Sofa, quantity: 2 }, { product_id: junk.Microwave }] },
      coupon_code: 'SAVE20',
    });
    expect(items.status).toBe(200);
    expect(items.body).toMatchObject({
      zone: { name: 'San Francisco' },
      base_price: 2 * 8900 + 2500,
      zone_adjustment: 0,
      subtotal: 20300,
      discounts: [{ type: 'coupon', code: 'SAVE20', amount: 2000 }],
      discount: 2000,
      tax_rate: 8.625,
      tax: 1578, // 18300 x 8.625 % = 1578.375
      total: 19878,
      estimated_duration: 45,
    });
    const carpet = await productIds('carpet-cleaning');
    const sections = await acct.api.post('/v1/services/pricing', {
      industry: 'carpet-cleaning',
      zip: '10003',
      configuration: { sections: [{ product_id: carpet.Hallway, quantity: 1 }], frequency: 'monthly' },
      coupon_code: 'SAVE20',
    });
    // 2500 + 250 = 2750; monthly 10 % = 275; SAVE20 on the remaining 2475; tax 8.875 % of 475 = 42.16
    expect(sections.body).toMatchObject({ subtotal: 2750, discount: 2275, tax: 42, total: 517 });
    expect(sections.body.discounts.map((d: { amount: number }) => d.amount)).toEqual([275, 2000]);
  });

  it('prices without a zone when no zip is given', async () => {
    const res = await acct.api.post('/v1/services/pricing', {
      industry: 'residential-cleaning',
      configuration: { bedrooms: 0, bathrooms: 1 },
    });
    expect(res.body).toMatchObject({ zone: null, zone_adjustment: 0, tax_rate: 0, tax: 0, total: 8500 });
  });

  it('refuses bad input naming the field', async () => {
    const junk = await productIds('junk-removal');
    const cleaningExtras = await extraIds('residential-cleaning');
    const post = (body: object) => acct.api.post('/v1/services/pricing', body);
    const cases: [object, number, string, string | undefined][] = [
      [
        { industry: 'junk-removal', zip: '60601', configuration: { items: [{ product_id: junk.Sofa }] } },
        400,
        'parameter_invalid',
        'zip',
      ],
      [{ industry: 'nope', zip: '10001', configuration: {} }, 400, 'parameter_invalid', 'industry'],
      [
        { industry: 'junk-removal', zip: '10001', configuration: { items: [{ product_id: 'prod_nope' }] } },
        400,
        'parameter_invalid',
        'configuration.items.0.product_id',
      ],
      [
        { industry: 'junk-removal', zip: '10001', configuration: { items: [] } },
        400,
        'parameter_invalid',
        'configuration.items',
      ],
      [
        { industry: 'junk-removal', zip: '10001', configuration: { bedrooms: 1 } },
        400,
        'parameter_unknown',
        'configuration.bedrooms',
      ],
      [
        {
          industry: 'junk-removal',
          zip: '10001',
          configuration: { items: [{ product_id: junk.Sofa }], extras: [cleaningExtras['Inside the fridge']] },
        },
        400,
        'parameter_invalid',
        'configuration.extras.0',
      ],
      [
        { industry: 'residential-cleaning', zip: '10001', configuration: { bedrooms: 1 } },
        400,
        'missing_required_field',
        'configuration.bathrooms',
      ],
      [
        { industry: 'residential-cleaning', zip: '10001', configuration: { bedrooms: 1, bathrooms: 0 } },
        400,
        'parameter_invalid',
        'configuration.bathrooms',
      ],
      [
        {
          industry: 'residential-cleaning',
          zip: '10001',
          configuration: { bedrooms: 1, bathrooms: 1, frequency: 'daily' },
        },
        400,
        'parameter_invalid',
        'configuration.frequency',
      ],
      [
        { industry: 'residential-cleaning', zip: '10001', configuration: { bedrooms: 1, bathrooms: 1, pets: true } },
        400,
        'parameter_unknown',
        'configuration.pets',
      ],
      [
        { industry: 'residential-cleaning', configuration: { bedrooms: 1, bathrooms: 1 }, coupon_code: 'NOPE' },
        400,
        'invalid_coupon',
        'coupon_code',
      ],
      [
        { industry: 'junk-removal', configuration: { items: [{ product_id: junk.Sofa }] }, coupon_code: 'CARPET15' },
        400,
        'invalid_coupon',
        'coupon_code',
      ],
      [{ zip: '10001', configuration: { bedrooms: 1, bathrooms: 1 } }, 400, 'missing_required_field', 'industry'],
    ];
    for (const [body, status, code, param] of cases) {
      const res = await post(body);
      expect([body, res.status, res.body.error?.code, res.body.error?.param]).toEqual([body, status, code, param]);
    }
  });

  it('refuses expired and used-up coupons', async () => {
    const tenant = acct.tenant();
    const body = {
      industry: 'residential-cleaning',
      configuration: { bedrooms: 1, bathrooms: 1 },
      coupon_code: 'CARPET15',
    };
    await query(
      t.database.sql,
      sql`update coupons set industries = null, max_redemptions = 2, times_redeemed = 2
          where account_id = ${tenant.accountId} and environment = 'test' and code = 'CARPET15'`,
    );
    const usedUp = await acct.api.post('/v1/services/pricing', body);
    expect(usedUp.body.error).toMatchObject({ code: 'invalid_coupon', param: 'coupon_code' });
    expect(usedUp.body.error.message).toMatch(/used up/);
    await query(
      t.database.sql,
      sql`update coupons set times_redeemed = 1, valid_until = '2026-05-31T00:00:00Z'
          where account_id = ${tenant.accountId} and environment = 'test' and code = 'CARPET15'`,
    );
    const expired = await acct.api.post('/v1/services/pricing', body);
    expect(expired.body.error.message).toMatch(/expired/);
    await query(
      t.database.sql,
      sql`update coupons set valid_until = null where account_id = ${tenant.accountId} and environment = 'test' and code = 'CARPET15'`,
    );
    expect((await acct.api.post('/v1/services/pricing', body)).status).toBe(200);
  });
});

describe('customers in a zone', () => {
  it('lists customers with an address whose ZIP the zone covers', async () => {
    const other = await createTestAccount(t, { demo: true });
    const zones = await query<{ id: string; name: string }>(
      t.database.sql,
      sql`select id, name from zones where account_id = ${other.accountId} and environment = 'test'`,
    );
    const manhattan = zones.find((z) => z.name === 'Manhattan')?.id;
    const address = (zip: string) => ({ street: '1 Main St', city: 'Somewhere', state: 'NY', zip });
    const inZone = (
      await other.api.post('/v1/customers', {
        first_name: 'In',
        last_name: 'Zone',
        email: 'in@example.com',
        address: address('10002'),
      })
    ).body;
    await other.api.post('/v1/customers', {
      first_name: 'Out',
      last_name: 'Side',
      email: 'out@example.com',
      address: address('94103'),
    });
    await other.api.post('/v1/customers', { first_name: 'No', last_name: 'Address', email: 'none@example.com' });
    const res = await other.api.get(`/v1/customers?zone_id=${manhattan}`);
    expect(res.status).toBe(200);
    expect(res.body.data.map((c: { id: string }) => c.id)).toEqual([inZone.id]);
    // the same zone id means nothing in the live environment
    expect((await other.live.get(`/v1/customers?zone_id=${manhattan}`)).body.data).toEqual([]);
  });
});

describe('catalog import and export', () => {
  it('round-trips: export, import, export gives the same file and keeps ids', async () => {
    const tenant = acct.tenant();
    const first = await exportCatalog(t.app.deps, tenant);
    expect(first.industries).toHaveLength(3);
    expect(first.zones.map((z) => z.zips)).toEqual([
      ['10001', '10002', '10003'],
      ['94103', '94107', '94110'],
    ]);
    const summary = await importCatalog(t.app.deps, tenant, JSON.stringify(first, null, 2));
    expect(summary).toMatchObject({ industries: 3, zones: 2, staff: 8, coupons: 3 });
    expect(await exportCatalog(t.app.deps, tenant)).toEqual(first);
  });

  it('replaces the catalog: renamed and new items, dropped items archived, inactive industries hidden', async () => {
    const other = await createTestAccount(t, { demo: true });
    const tenant = other.tenant();
    const file = await exportCatalog(t.app.deps, tenant);
    const junk = file.industries[1]!;
    const sofa = junk.categories[0]!.products[0]!;
    sofa.base_price = 9900;
    junk.categories[0]!.products.splice(1, 1); // drop the mattress
    junk.categories[0]!.products.push({ slug: 'piano', name: 'Piano', base_price: 39900, minutes: 60 });
    file.industries[2]!.is_active = false;
    file.coupons = file.coupons.filter((c) => c.code !== 'SAVE20');
    await importCatalog(t.app.deps, tenant, JSON.stringify(file));

    const industries = await other.api.get('/v1/services/industries');
    expect(industries.body.data.map((i: { slug: string }) => i.slug)).toEqual(['residential-cleaning', 'junk-removal']);
    expect((await other.api.get('/v1/services/industries/carpet-cleaning/products')).status).toBe(404);
    const products = (await other.api.get('/v1/services/industries/junk-removal/products')).body.categories[0].products;
    expect(products.map((p: { name: string }) => p.name)).toEqual([
      'Sofa',
      'Armchair',
      'Dresser',
      'Dining table',
      'Piano',
    ]);
    expect(products[0]).toMatchObject({ id: sofa.id, base_price: 9900 });
    const mattress = await query<{ archived_at: string | null }>(
      t.database.sql,
      sql`select archived_at from products where account_id = ${tenant.accountId} and environment = 'test' and slug = 'mattress'`,
    );
    expect(mattress[0]?.archived_at).not.toBeNull();
    const save = await other.api.post('/v1/services/pricing', {
      industry: 'junk-removal',
      configuration: { items: [{ product_id: sofa.id }] },
      coupon_code: 'SAVE20',
    });
    expect(save.body.error.code).toBe('invalid_coupon');
  });

  it('rejects a broken file naming the field and its line, and changes nothing', async () => {
    const tenant = acct.tenant();
    const before = await exportCatalog(t.app.deps, tenant);
    const broken = structuredClone(before) as unknown as {
      industries: { categories: { products: { base_price: unknown }[] }[] }[];
      zones: { timezone: string }[];
    };
    broken.industries[1]!.categories[0]!.products[2]!.base_price = 'cheap';
    const text = JSON.stringify(broken, null, 2);
    const error = await importCatalog(t.app.deps, tenant, text).catch((e) => e);
    expect(error.code).toBe('parameter_invalid');
    expect(error.problems).toEqual([
      {
        path: 'industries[1].categories[0].products[2].base_price',
        line: text.split('\n').findIndex((line) => line.includes('"cheap"')) + 1,
        message: 'must be integer',
      },
    ]);
    expect(error.message).toMatch(/industries\[1\]\.categories\[0\]\.products\[2\]\.base_price/);

    // rules across sections fail the same way: a staff member in an unknown zone, a bad timezone
    const crossed = structuredClone(before);
    crossed.staff[0]!.zones = ['Brooklyn'];
    crossed.zones[1]!.timezone = 'Mars/Olympus';
    crossed.coupons.push({ code: 'BOTH', percent_off: 5, amount_off: 100 });
    const rules = await importCatalog(t.app.deps, tenant, JSON.stringify(crossed, null, 2)).catch((e) => e);
    expect(rules.problems.map((p: { path: string }) => p.path)).toEqual([
      'zones[1].timezone',
      'staff[0].zones[0]',
      'coupons[3]',
    ]);
    expect(rules.problems.every((p: { line: number | null }) => typeof p.line === 'number')).toBe(true);

    const invalidJson = await importCatalog(
      t.app.deps,
      tenant,
      '{"format": "fieldhand-catalog/1",\n  "industries": [,]}',
    ).catch((e) => e);
    expect(invalidJson.problems[0].message).toMatch(/not valid JSON/);
    const unknownField = await importCatalog(t.app.deps, tenant, JSON.stringify({ ...before, colour: 'blue' })).catch(
      (e) => e,
    );
    expect(unknownField.problems[0]).toMatchObject({ path: 'colour', message: 'is not a field of the catalog format' });

    expect(await exportCatalog(t.app.deps, tenant)).toEqual(before);
  });

  it('is atomic: a failure late in the import leaves the catalog as it was', async () => {
    const tenant = acct.tenant();
    const before = await exportCatalog(t.app.deps, tenant);
    const file = structuredClone(before);
    file.industries[0]!.name = 'Changed';
    file.zones[0]!.zips.push('00000');
    // ZIPs are written after industries, products and zones: make that step fail for this account
    await t.database.sql.execute(
      sql.raw(`create or replace function refuse_zip() returns trigger language plpgsql as $$
        begin
          if new.zip = '00000' and new.account_id = '${tenant.accountId}' then raise exception 'refused'; end if;
          return new;
        end $$`),
    );
    await t.database.sql.execute(
      sql.raw('create trigger refuse_zip before insert on zone_zips for each row execute function refuse_zip()'),
    );
    try {
      const error = await importCatalog(t.app.deps, tenant, JSON.stringify(file)).catch((e) => e);
      expect(`${error.message} ${error.cause?.message}`).toMatch(/refused/);
    } finally {
      await t.database.sql.execute(sql.raw('drop trigger refuse_zip on zone_zips'));
    }
    expect(await exportCatalog(t.app.deps, tenant)).toEqual(before);
  });
});
