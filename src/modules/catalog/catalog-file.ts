// The catalog file: what `fieldhand catalog export|import` reads and writes (docs/catalog.md).
// Checked in two passes, the JSON schema and then the rules that span fields, and every
// problem names its JSON path and line.
import { Ajv, type ErrorObject } from 'ajv';
import addFormats from 'ajv-formats';
import { type Static, type TSchema, Type } from 'typebox';
import { AppError } from '../../core/errors.ts';
import { isValidTimeZone, WEEKDAYS } from '../availability/index.ts';

export const CATALOG_FORMAT = 'fieldhand-catalog/1';

const Slug = Type.String({
  pattern: '^[a-z0-9]+(-[a-z0-9]+)*$',
  maxLength: 64,
  description: 'a slug (lower-case letters, digits and single dashes)',
});
const Name = Type.String({ minLength: 1, maxLength: 200 });
const Text = Type.String({ maxLength: 2000 });
const Money = Type.Integer({ minimum: 0, maximum: 100_000_000, description: 'integer cents >= 0' });
const Minutes = Type.Integer({ minimum: 0, maximum: 1440 });
const Percent = Type.Number({ minimum: 0, maximum: 100 });
const Time = Type.String({ pattern: '^(([01][0-9]|2[0-3]):[0-5][0-9]|24:00)$', description: 'a time HH:MM' });
const Zip = Type.String({ pattern: '^[A-Za-z0-9 -]{3,10}$', description: 'a postal code' });
const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const Strict = <T extends Record<string, TSchema>>(properties: T) =>
  Type.Object(properties, { additionalProperties: false });
const IdOf = (prefix: string) =>
  Type.String({ pattern: `^${prefix}_[0-9A-Za-z]{1,64}$`, description: `an id starting with ${prefix}_` });

const DayHours = Nullable(Strict({ open: Time, close: Time }));
const Hours = Strict({
  monday: Type.Optional(DayHours),
  tuesday: Type.Optional(DayHours),
  wednesday: Type.Optional(DayHours),
  thursday: Type.Optional(DayHours),
  friday: Type.Optional(DayHours),
  saturday: Type.Optional(DayHours),
  sunday: Type.Optional(DayHours),
});

const Product = Strict({
  id: Type.Optional(IdOf('prod')),
  slug: Slug,
  name: Name,
  description: Type.Optional(Text),
  base_price: Money,
  minutes: Minutes,
  in_catalog: Type.Optional(Type.Boolean()),
  room: Type.Optional(Nullable(Type.Union([Type.Literal('visit'), Type.Literal('bedroom'), Type.Literal('bathroom')]))),
});

const Category = Strict({
  id: Type.Optional(IdOf('pcat')),
  slug: Slug,
  name: Name,
  products: Type.Array(Product),
});

const Extra = Strict({
  id: Type.Optional(IdOf('extra')),
  slug: Slug,
  name: Name,
  description: Type.Optional(Text),
  price: Money,
  price_type: Type.Union([Type.Literal('per_unit'), Type.Literal('flat')]),
  unit_label: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 50 }))),
  minutes: Type.Optional(Minutes),
});

const Industry = Strict({
  id: Type.Optional(IdOf('ind')),
  slug: Slug,
  name: Name,
  description: Type.Optional(Text),
  icon: Type.Optional(Type.String({ maxLength: 100 })),
  configuration_type: Type.Union([
    Type.Literal('room_based'),
    Type.Literal('item_based'),
    Type.Literal('section_based'),
  ]),
  is_active: Type.Optional(Type.Boolean()),
  categories: Type.Array(Category),
  extras: Type.Array(Extra),
});

const Zone = Strict({
  id: Type.Optional(IdOf('zone')),
  name: Name,
  timezone: Type.String({ minLength: 1, description: 'an IANA timezone such as America/New_York' }),
  zips: Type.Array(Zip, { minItems: 1 }),
  industries: Type.Array(Slug),
  hours: Hours,
  slot_interval_minutes: Type.Integer({ minimum: 5, maximum: 720 }),
  travel_buffer_minutes: Type.Integer({ minimum: 0, maximum: 480 }),
  lead_time_minutes: Type.Integer({ minimum: 0, maximum: 60 * 24 * 60 }),
  price_adjustment_percent: Type.Number({ minimum: -100, maximum: 1000 }),
  tax_rate: Percent,
  is_active: Type.Optional(Type.Boolean()),
});

const Staff = Strict({
  id: Type.Optional(IdOf('staff')),
  name: Name,
  email: Type.Optional(Nullable(Type.String({ format: 'email', maxLength: 254 }))),
  phone: Type.Optional(Nullable(Type.String({ maxLength: 32 }))),
  zones: Type.Array(Name, { description: 'zone names' }),
  industries: Type.Array(Slug),
  hours: Hours,
  is_active: Type.Optional(Type.Boolean()),
});

const Coupon = Strict({
  id: Type.Optional(IdOf('coupon')),
  code: Type.String({ pattern: '^[A-Za-z0-9_-]{2,40}$', description: 'a code of 2-40 letters, digits, _ or -' }),
  description: Type.Optional(Text),
  percent_off: Type.Optional(Nullable(Type.Number({ exclusiveMinimum: 0, maximum: 100 }))),
  amount_off: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 100_000_000 }))),
  valid_from: Type.Optional(Nullable(Type.String({ format: 'date-time' }))),
  valid_until: Type.Optional(Nullable(Type.String({ format: 'date-time' }))),
  max_redemptions: Type.Optional(Nullable(Type.Integer({ minimum: 1 }))),
  industries: Type.Optional(Nullable(Type.Array(Slug))),
  is_active: Type.Optional(Type.Boolean()),
});

const Settings = Strict({
  frequency_discounts: Strict({
    'one-time': Type.Optional(Percent),
    weekly: Type.Optional(Percent),
    'bi-weekly': Type.Optional(Percent),
    monthly: Type.Optional(Percent),
  }),
  cancellation_policy: Strict({
    free_cancellation_hours: Type.Integer({ minimum: 0, maximum: 24 * 30 }),
    late_cancellation_fee_percent: Percent,
    in_progress_fee_percent: Percent,
  }),
});

export const CatalogFile = Strict({
  format: Type.Literal(CATALOG_FORMAT),
  settings: Settings,
  industries: Type.Array(Industry),
  zones: Type.Array(Zone),
  staff: Type.Array(Staff),
  coupons: Type.Array(Coupon),
});

export type CatalogFile = Static<typeof CatalogFile>;
export type CatalogSettingsFile = Static<typeof Settings>;
export type IndustryFile = Static<typeof Industry>;
export type ZoneFile = Static<typeof Zone>;
export type StaffFile = Static<typeof Staff>;
export type CouponFile = Static<typeof Coupon>;
export type HoursFile = Static<typeof Hours>;

export interface Problem {
  path: string;
  line: number | null;
  message: string;
}

/** A catalog file that cannot be imported; nothing was changed. */
export class CatalogFileError extends AppError {
  readonly problems: Problem[];

  constructor(problems: Problem[]) {
    const shown = problems
      .slice(0, 20)
      .map((p) => `  ${p.line ? `line ${p.line}, ` : ''}${p.path || '(file)'}: ${p.message}`);
    const more = problems.length > 20 ? [`  ... and ${problems.length - 20} more`] : [];
    super(
      'parameter_invalid',
      [`The catalog file has ${problems.length} problem(s); nothing was changed:`, ...shown, ...more].join('\n'),
      { param: problems[0]?.path },
    );
    this.problems = problems;
  }
}

const ajv = new Ajv({ allErrors: true, strict: false, verbose: true });
addFormats.default(ajv);
const validateSchema = ajv.compile(CatalogFile);

/** `/industries/0/slug` as `industries[0].slug`. */
function readablePath(pointer: string): string {
  return pointer
    .split('/')
    .slice(1)
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce(
      (path, segment) => (/^\d+$/.test(segment) ? `${path}[${segment}]` : path ? `${path}.${segment}` : segment),
      '',
    );
}

function schemaMessage(error: ErrorObject): string {
  const described = (error.parentSchema as { description?: string } | undefined)?.description;
  switch (error.keyword) {
    case 'required':
      return 'is required';
    case 'additionalProperties':
      return 'is not a field of the catalog format';
    case 'pattern':
    case 'format':
      return described ? `must be ${described}` : `${error.message}`;
    case 'const':
      return `must be ${JSON.stringify(error.params.allowedValue)}`;
    default:
      return error.message ?? 'is invalid';
  }
}

function schemaProblems(errors: ErrorObject[], lines: Map<string, number>): Problem[] {
  const byPath = new Map<string, ErrorObject[]>();
  for (const error of errors) {
    let pointer = error.instancePath;
    if (error.keyword === 'required') pointer += `/${error.params.missingProperty}`;
    if (error.keyword === 'additionalProperties') pointer += `/${error.params.additionalProperty}`;
    byPath.set(pointer, [...(byPath.get(pointer) ?? []), error]);
  }
  const problems: Problem[] = [];
  for (const [pointer, found] of byPath) {
    // of a union's failures, the branch that names a real constraint says the most
    const best = found.find((e) => e.keyword !== 'anyOf' && !(e.keyword === 'type' && e.params.type === 'null'));
    const error = best ?? found[0];
    if (!error) continue;
    let line = lines.get(pointer);
    for (let parent = pointer; line === undefined && parent; parent = parent.slice(0, parent.lastIndexOf('/'))) {
      line = lines.get(parent);
    }
    problems.push({ path: readablePath(pointer), line: line ?? null, message: schemaMessage(error) });
  }
  return problems;
}

/** The line on which each JSON value (or its key) starts, by JSON pointer. Input is valid JSON. */
function lineIndex(text: string): Map<string, number> {
  const lines = new Map<string, number>();
  let at = 0;
  let line = 1;
  const skipSpace = () => {
    while (at < text.length && ' \t\r\n'.includes(text[at] as string)) {
      if (text[at] === '\n') line++;
      at++;
    }
  };
  const readString = (): string => {
    const start = at++;
    while (text[at] !== '"') at += text[at] === '\\' ? 2 : 1;
    at++;
    return JSON.parse(text.slice(start, at)) as string;
  };
  const readValue = (pointer: string) => {
    skipSpace();
    if (!lines.has(pointer)) lines.set(pointer, line);
    const char = text[at];
    if (char === '{' || char === '[') {
      const isObject = char === '{';
      at++;
      skipSpace();
      let index = 0;
      while (text[at] !== (isObject ? '}' : ']')) {
        skipSpace();
        let key = String(index++);
        if (isObject) {
          const keyLine = line;
          key = readString().replace(/~/g, '~0').replace(/\//g, '~1');
          lines.set(`${pointer}/${key}`, keyLine);
          skipSpace();
          at++; // the colon
        }
        readValue(`${pointer}/${key}`);
        skipSpace();
        if (text[at] === ',') at++;
        skipSpace();
      }
      at++;
      return;
    }
    if (char === '"') {
      readString();
      return;
    }
    while (at < text.length && !',]} \t\r\n'.includes(text[at] as string)) at++;
  };
  readValue('');
  return lines;
}

function decimals(value: number): boolean {
  return Math.abs(Math.round(value * 1000) - value * 1000) < 1e-6;
}

function hoursProblems(hours: HoursFile, path: string): Problem[] {
  const problems: Problem[] = [];
  for (const day of WEEKDAYS) {
    const window = hours[day];
    if (window && window.open >= window.close) {
      problems.push({ path: `${path}.hours.${day}`, line: null, message: 'open must be before close' });
    }
  }
  return problems;
}

/** The rules a JSON schema cannot say: uniqueness, references between sections, shapes. */
function ruleProblems(file: CatalogFile): Omit<Problem, 'line'>[] {
  const problems: Omit<Problem, 'line'>[] = [];
  const add = (path: string, message: string) => problems.push({ path, message });
  const ids = new Set<string>();
  const claimId = (id: string | undefined, path: string) => {
    if (id === undefined) return;
    if (ids.has(id)) add(`${path}.id`, `the id ${id} is used twice`);
    ids.add(id);
  };
  const percent = (value: number | null | undefined, path: string) => {
    if (typeof value === 'number' && !decimals(value)) add(path, 'must have at most 3 decimals');
  };

  const industrySlugs = new Set<string>();
  file.industries.forEach((industry, i) => {
    const at = `industries[${i}]`;
    claimId(industry.id, at);
    if (industrySlugs.has(industry.slug)) add(`${at}.slug`, `the industry slug ${industry.slug} is used twice`);
    industrySlugs.add(industry.slug);
    const categorySlugs = new Set<string>();
    const productSlugs = new Set<string>();
    const rooms = new Map<string, number>();
    industry.categories.forEach((category, c) => {
      const catAt = `${at}.categories[${c}]`;
      claimId(category.id, catAt);
      if (categorySlugs.has(category.slug)) add(`${catAt}.slug`, `the category slug ${category.slug} is used twice`);
      categorySlugs.add(category.slug);
      category.products.forEach((product, p) => {
        const prodAt = `${catAt}.products[${p}]`;
        claimId(product.id, prodAt);
        if (productSlugs.has(product.slug)) add(`${prodAt}.slug`, `the product slug ${product.slug} is used twice`);
        productSlugs.add(product.slug);
        if (product.room) {
          if (industry.configuration_type !== 'room_based') {
            add(`${prodAt}.room`, 'only products of room_based industries have a room');
          }
          rooms.set(product.room, (rooms.get(product.room) ?? 0) + 1);
        }
      });
    });
    if (industry.configuration_type === 'room_based') {
      for (const room of ['visit', 'bedroom', 'bathroom']) {
        if (rooms.get(room) !== 1) {
          add(`${at}.categories`, `a room_based industry needs exactly one product with room "${room}"`);
        }
      }
    }
    const extraSlugs = new Set<string>();
    industry.extras.forEach((extra, e) => {
      const extraAt = `${at}.extras[${e}]`;
      claimId(extra.id, extraAt);
      if (extraSlugs.has(extra.slug)) add(`${extraAt}.slug`, `the extra slug ${extra.slug} is used twice`);
      extraSlugs.add(extra.slug);
      if (extra.price_type === 'per_unit' && !extra.unit_label) {
        add(`${extraAt}.unit_label`, 'a per_unit extra needs a unit_label');
      }
    });
  });

  const knownIndustries = (slugs: readonly string[] | null | undefined, path: string) => {
    slugs?.forEach((slug, s) => {
      if (!industrySlugs.has(slug)) add(`${path}[${s}]`, `no industry ${slug} in this file`);
    });
  };

  const zoneNames = new Set<string>();
  file.zones.forEach((zone, z) => {
    const at = `zones[${z}]`;
    claimId(zone.id, at);
    const key = zone.name.toLowerCase();
    if (zoneNames.has(key)) add(`${at}.name`, `the zone name ${zone.name} is used twice`);
    zoneNames.add(key);
    if (!isValidTimeZone(zone.timezone)) add(`${at}.timezone`, `unknown timezone ${zone.timezone}`);
    if (new Set(zone.zips).size !== zone.zips.length) add(`${at}.zips`, 'a ZIP code is listed twice');
    knownIndustries(zone.industries, `${at}.industries`);
    percent(zone.price_adjustment_percent, `${at}.price_adjustment_percent`);
    percent(zone.tax_rate, `${at}.tax_rate`);
    problems.push(...hoursProblems(zone.hours, at));
  });

  file.staff.forEach((member, s) => {
    const at = `staff[${s}]`;
    claimId(member.id, at);
    member.zones.forEach((name, z) => {
      if (!zoneNames.has(name.toLowerCase())) add(`${at}.zones[${z}]`, `no zone named ${name} in this file`);
    });
    knownIndustries(member.industries, `${at}.industries`);
    problems.push(...hoursProblems(member.hours, at));
  });

  const codes = new Set<string>();
  file.coupons.forEach((coupon, c) => {
    const at = `coupons[${c}]`;
    claimId(coupon.id, at);
    const key = coupon.code.toLowerCase();
    if (codes.has(key)) add(`${at}.code`, `the coupon code ${coupon.code} is used twice`);
    codes.add(key);
    const percentOff = coupon.percent_off ?? null;
    const amountOff = coupon.amount_off ?? null;
    if ((percentOff === null) === (amountOff === null)) add(at, 'give exactly one of percent_off and amount_off');
    percent(percentOff, `${at}.percent_off`);
    if (coupon.valid_from && coupon.valid_until && Date.parse(coupon.valid_from) >= Date.parse(coupon.valid_until)) {
      add(`${at}.valid_until`, 'must be after valid_from');
    }
    knownIndustries(coupon.industries, `${at}.industries`);
  });

  for (const [frequency, value] of Object.entries(file.settings.frequency_discounts)) {
    percent(value, `settings.frequency_discounts.${frequency}`);
  }
  return problems;
}

/** Parses and checks a catalog file's text; throws CatalogFileError listing every problem. */
export function parseCatalogFile(text: string): CatalogFile {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    const message = (error as Error).message;
    const position = /position (\d+)/.exec(message);
    const line = position ? text.slice(0, Number(position[1])).split('\n').length : null;
    throw new CatalogFileError([{ path: '', line, message: `not valid JSON (${message})` }]);
  }
  const lines = lineIndex(text);
  if (!validateSchema(data)) throw new CatalogFileError(schemaProblems(validateSchema.errors ?? [], lines));
  const file = data as CatalogFile;
  const problems = ruleProblems(file);
  if (problems.length > 0) {
    const pointerOf = (path: string) =>
      `/${path
        .replace(/\[(\d+)\]/g, '.$1')
        .split('.')
        .join('/')}`;
    throw new CatalogFileError(problems.map((p) => ({ ...p, line: lines.get(pointerOf(p.path)) ?? null })));
  }
  return file;
}

/** Checks a catalog held in memory (the demo catalog) by the same rules. */
export function checkCatalog(file: CatalogFile): CatalogFile {
  return parseCatalogFile(JSON.stringify(file));
}
