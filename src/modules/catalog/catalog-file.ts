// The catalog file: what `fieldhand catalog export|import` reads and writes (docs/catalog.md).
// Checked in two passes, the JSON schema and then the rules that span fields, and every
// problem names its JSON path and line.
import { Ajv, type ErrorObject } from 'ajv';
import addFormats from 'ajv-formats';
import { type Static, type TSchema, Type } from 'typebox';
import { AppError } from '../../core/errors.ts';
import { isValidTimeZone, WEEKDAYS } from '../availability/index.ts';

export const CATALOG_FORMAT = 'fieldhand-catalog/1';

// The field rules of the catalog format. The /v1 setup schemas (industries, coupons, settings, …)
// reuse them, so the file and the API accept exactly the same values (CONTRACT §11).
export const Slug = Type.String({
  pattern: '^[a-z0-9]+(-[a-z0-9]+)*$',
  maxLength: 64,
  description: 'a slug (lower-case letters, digits and single dashes)',
});
export const Name = Type.String({ minLength: 1, maxLength: 200 });
export const Text = Type.String({ maxLength: 2000 });
export const Money = Type.Integer({ minimum: 0, maximum: 100_000_000, description: 'integer cents >= 0' });
export const Minutes = Type.Integer({ minimum: 0, maximum: 1440 });
export const Percent = Type.Number({ minimum: 0, maximum: 100 });
const Time = Type.String({ pattern: '^(([01][0-9]|2[0-3]):[0-5][0-9]|24:00)$', description: 'a time HH:MM' });
export const Email = Type.String({ format: 'email', maxLength: 254 });
export const Phone = Type.String({ maxLength: 32 });
const Zip = Type.String({ pattern: '^[A-Za-z0-9 -]{3,10}$', description: 'a postal code' });
export const Icon = Type.String({ maxLength: 100 });
export const UnitLabel = Type.String({ minLength: 1, maxLength: 50 });
export const PriceType = Type.Union([Type.Literal('per_unit'), Type.Literal('flat')]);
export const ConfigurationType = Type.Union([
  Type.Literal('room_based'),
  Type.Literal('item_based'),
  Type.Literal('section_based'),
]);
export const ROOMS = ['visit', 'bedroom', 'bathroom'] as const;
export type Room = (typeof ROOMS)[number];
export const RoomName = Type.Union([Type.Literal('visit'), Type.Literal('bedroom'), Type.Literal('bathroom')]);
const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const Strict = <T extends Record<string, TSchema>>(properties: T) =>
  Type.Object(properties, { additionalProperties: false });
const IdOf = (prefix: string) =>
  Type.String({ pattern: `^${prefix}_[0-9A-Za-z]{1,64}$`, description: `an id starting with ${prefix}_` });

// Every industry, category, product and extra is found by its slug, may carry the id it was
// exported with, and has a name.
const Item = <T extends Record<string, TSchema>>(prefix: string, fields: T) =>
  Strict({ id: Type.Optional(IdOf(prefix)), slug: Slug, name: Name, ...fields });

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

const Product = Item('prod', {
  description: Type.Optional(Text),
  base_price: Money,
  minutes: Minutes,
  in_catalog: Type.Optional(Type.Boolean()),
  room: Type.Optional(Nullable(RoomName)),
});

const Category = Item('pcat', {
  products: Type.Array(Product),
});

const Extra = Item('extra', {
  description: Type.Optional(Text),
  price: Money,
  price_type: PriceType,
  unit_label: Type.Optional(Nullable(UnitLabel)),
  minutes: Type.Optional(Minutes),
});

const Industry = Item('ind', {
  description: Type.Optional(Text),
  icon: Type.Optional(Icon),
  configuration_type: ConfigurationType,
  is_active: Type.Optional(Type.Boolean()),
  categories: Type.Array(Category),
  extras: Type.Array(Extra),
});

/** A zone's fields, the same in the catalog file and the API (`/v1/zones`). */
export const ZoneFields = {
  name: Name,
  timezone: Type.String({ minLength: 1, maxLength: 64, description: 'an IANA timezone such as America/New_York' }),
  zips: Type.Array(Zip, { minItems: 1, maxItems: 2000 }),
  industries: Type.Array(Slug, { maxItems: 100 }),
  hours: Hours,
  slot_interval_minutes: Type.Integer({ minimum: 5, maximum: 720 }),
  travel_buffer_minutes: Type.Integer({ minimum: 0, maximum: 480 }),
  lead_time_minutes: Type.Integer({ minimum: 0, maximum: 60 * 24 * 60 }),
  price_adjustment_percent: Type.Number({ minimum: -100, maximum: 1000 }),
  tax_rate: Percent,
};

const Zone = Strict({
  id: Type.Optional(IdOf('zone')),
  ...ZoneFields,
  is_active: Type.Optional(Type.Boolean()),
});

/** A crew member's fields, the same in the catalog file and the API (`/v1/staff`), but for zones. */
export const StaffFields = {
  name: Name,
  email: Type.Optional(Nullable(Email)),
  phone: Type.Optional(Nullable(Phone)),
  industries: Type.Array(Slug, { maxItems: 100 }),
  hours: Hours,
};

const Staff = Strict({
  id: Type.Optional(IdOf('staff')),
  ...StaffFields,
  zones: Type.Array(Name, { description: 'zone names' }),
  is_active: Type.Optional(Type.Boolean()),
});

/** A coupon's fields (everything but its id): the catalog file's and POST /v1/coupons'. */
export const CouponFields = {
  code: Type.String({ pattern: '^[A-Za-z0-9_-]{2,40}$', description: 'a code of 2-40 letters, digits, _ or -' }),
  description: Type.Optional(Text),
  percent_off: Type.Optional(Nullable(Type.Number({ exclusiveMinimum: 0, maximum: 100 }))),
  amount_off: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 100_000_000 }))),
  valid_from: Type.Optional(Nullable(Type.String({ format: 'date-time' }))),
  valid_until: Type.Optional(Nullable(Type.String({ format: 'date-time' }))),
  max_redemptions: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 100_000_000 }))),
  industries: Type.Optional(Nullable(Type.Array(Slug, { maxItems: 100 }))),
  is_active: Type.Optional(Type.Boolean()),
};

const Coupon = Strict({ id: Type.Optional(IdOf('coupon')), ...CouponFields });

/** Percent off by frequency (each optional: a missing one is 0). */
export const FrequencyDiscounts = Strict({
  'one-time': Type.Optional(Percent),
  weekly: Type.Optional(Percent),
  'bi-weekly': Type.Optional(Percent),
  monthly: Type.Optional(Percent),
});

export const CancellationPolicyFields = {
  free_cancellation_hours: Type.Integer({ minimum: 0, maximum: 24 * 30 }),
  late_cancellation_fee_percent: Percent,
  in_progress_fee_percent: Percent,
};

const Settings = Strict({
  frequency_discounts: FrequencyDiscounts,
  cancellation_policy: Strict(CancellationPolicyFields),
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

/** Percentages allow up to three decimals (8.875). */
export function atMostThreeDecimals(value: number): boolean {
  return Math.abs(Math.round(value * 1000) - value * 1000) < 1e-6;
}

/**
 * The rules of one coupon that span its fields, with paths relative to the coupon ('' for the
 * coupon as a whole): exactly one discount, percentages to 3 decimals, a validity window that
 * ends after it starts, and industries that exist (`knownIndustry`).
 */
export function couponProblems(
  coupon: Pick<CouponFile, 'percent_off' | 'amount_off' | 'valid_from' | 'valid_until' | 'industries'>,
  knownIndustry: (slug: string) => boolean,
): { path: string; message: string }[] {
  const problems: { path: string; message: string }[] = [];
  const percentOff = coupon.percent_off ?? null;
  const amountOff = coupon.amount_off ?? null;
  if ((percentOff === null) === (amountOff === null)) {
    problems.push({ path: '', message: 'give exactly one of percent_off and amount_off' });
  }
  if (percentOff !== null && !atMostThreeDecimals(percentOff)) {
    problems.push({ path: 'percent_off', message: 'must have at most 3 decimals' });
  }
  if (coupon.valid_from && coupon.valid_until && Date.parse(coupon.valid_from) >= Date.parse(coupon.valid_until)) {
    problems.push({ path: 'valid_until', message: 'must be after valid_from' });
  }
  coupon.industries?.forEach((slug, s) => {
    if (!knownIndustry(slug)) problems.push({ path: `industries[${s}]`, message: `no industry ${slug}` });
  });
  return problems;
}

/** Days whose close is not after their open, as problems at `<path>.hours.<day>`. */
export function hoursProblems(hours: HoursFile, path: string): Problem[] {
  const problems: Problem[] = [];
  for (const day of WEEKDAYS) {
    const window = hours[day];
    if (window && window.open >= window.close) {
      problems.push({ path: `${path}.hours.${day}`, line: null, message: 'open must be before close' });
    }
  }
  return problems;
}

/** A per_unit extra is priced per something: it needs the unit's label (file and API alike). */
export function extraProblem(extra: { price_type: string; unit_label?: string | null }): string | null {
  return extra.price_type === 'per_unit' && !extra.unit_label ? 'a per_unit extra needs a unit_label' : null;
}

/**
 * The room rules (file and API alike): only room_based industries have room products, and a
 * room_based one has exactly one visit, one bedroom and one bathroom product.
 */
export function roomProblems(configurationType: string, rooms: readonly Room[]): string[] {
  if (configurationType !== 'room_based') {
    return rooms.length > 0 ? ['only products of room_based industries have a room'] : [];
  }
  return ROOMS.filter((room) => rooms.filter((r) => r === room).length !== 1).map(
    (room) => `a room_based industry needs exactly one product with room "${room}"`,
  );
}

/** The rules a JSON schema cannot say: uniqueness, references between sections, shapes. */
function ruleProblems(file: CatalogFile): Omit<Problem, 'line'>[] {
  const problems: Omit<Problem, 'line'>[] = [];
  const add = (path: string, message: string) => problems.push({ path, message });
  // ids, slugs, zone names and coupon codes: each may stand once among its kind
  const claim = (seen: Set<string>, key: string, path: string, what: string) => {
    if (seen.has(key)) add(path, `the ${what} is used twice`);
    seen.add(key);
  };
  const ids = new Set<string>();
  const claimId = (id: string | undefined, path: string) => {
    if (id !== undefined) claim(ids, id, `${path}.id`, `id ${id}`);
  };
  const percent = (value: number | null | undefined, path: string) => {
    if (typeof value === 'number' && !atMostThreeDecimals(value)) add(path, 'must have at most 3 decimals');
  };

  const industrySlugs = new Set<string>();
  file.industries.forEach((industry, i) => {
    const at = `industries[${i}]`;
    claimId(industry.id, at);
    claim(industrySlugs, industry.slug, `${at}.slug`, `industry slug ${industry.slug}`);
    const categorySlugs = new Set<string>();
    const productSlugs = new Set<string>();
    const rooms: Room[] = [];
    industry.categories.forEach((category, c) => {
      const catAt = `${at}.categories[${c}]`;
      claimId(category.id, catAt);
      claim(categorySlugs, category.slug, `${catAt}.slug`, `category slug ${category.slug}`);
      category.products.forEach((product, p) => {
        const prodAt = `${catAt}.products[${p}]`;
        claimId(product.id, prodAt);
        claim(productSlugs, product.slug, `${prodAt}.slug`, `product slug ${product.slug}`);
        if (product.room) {
          const [problem] = roomProblems(industry.configuration_type, [product.room]);
          if (industry.configuration_type !== 'room_based' && problem) add(`${prodAt}.room`, problem);
          rooms.push(product.room);
        }
      });
    });
    if (industry.configuration_type === 'room_based') {
      for (const problem of roomProblems(industry.configuration_type, rooms)) add(`${at}.categories`, problem);
    }
    const extraSlugs = new Set<string>();
    industry.extras.forEach((extra, e) => {
      const extraAt = `${at}.extras[${e}]`;
      claimId(extra.id, extraAt);
      claim(extraSlugs, extra.slug, `${extraAt}.slug`, `extra slug ${extra.slug}`);
      const problem = extraProblem(extra);
      if (problem) add(`${extraAt}.unit_label`, problem);
    });
  });

  const knownIndustries = (slugs: readonly string[] | null | undefined, path: string) => {
    slugs?.forEach((slug, s) => {
      if (!industrySlugs.has(slug)) add(`${path}[${s}]`, `no industry ${slug} in this file`);
    });
  };

  const zoneNames = new Set<string>();
  // a ZIP is served for an industry by at most one active zone (the API's zone_coverage rule)
  const coverage = new Map<string, string>();
  file.zones.forEach((zone, z) => {
    const at = `zones[${z}]`;
    claimId(zone.id, at);
    claim(zoneNames, zone.name.toLowerCase(), `${at}.name`, `zone name ${zone.name}`);
    if (!isValidTimeZone(zone.timezone)) add(`${at}.timezone`, `unknown timezone ${zone.timezone}`);
    if (new Set(zone.zips).size !== zone.zips.length) add(`${at}.zips`, 'a ZIP code is listed twice');
    knownIndustries(zone.industries, `${at}.industries`);
    percent(zone.price_adjustment_percent, `${at}.price_adjustment_percent`);
    percent(zone.tax_rate, `${at}.tax_rate`);
    problems.push(...hoursProblems(zone.hours, at));
    if (zone.is_active !== false) {
      for (const zip of zone.zips) {
        for (const industry of zone.industries) {
          const holder = coverage.get(`${zip}|${industry}`);
          if (holder !== undefined && holder !== zone.name) {
            add(`${at}.zips`, `ZIP ${zip} is already served for ${industry} by the zone ${holder}`);
          }
          coverage.set(`${zip}|${industry}`, holder ?? zone.name);
        }
      }
    }
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
    claim(codes, coupon.code.toLowerCase(), `${at}.code`, `coupon code ${coupon.code}`);
    for (const problem of couponProblems(coupon, (slug) => industrySlugs.has(slug))) {
      const message = problem.path.startsWith('industries') ? `${problem.message} in this file` : problem.message;
      add(problem.path ? `${at}.${problem.path}` : at, message);
    }
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
