// Export and import of an environment's catalog. Import is one transaction that replaces the
// catalog: items keep their ids when the file names them (or keeps their slug, code or name),
// and items the file drops are archived, so bookings made earlier still resolve.
import { isoTimestamp, type SQL, type Sql, sql, textArray } from '../../core/db.ts';
import { type Deps, inTransaction } from '../../core/deps.ts';
import { type IdKind, newId } from '../../core/ids.ts';
import type { Tenant } from '../../core/tenant.ts';
import { WEEKDAYS } from '../availability/index.ts';
import { findSettings } from './catalog.repository.ts';
import * as repository from './catalog-file.repository.ts';
import { CATALOG_FORMAT, type CatalogFile, type HoursFile, parseCatalogFile } from './catalog-file.ts';
import { settingsFrom } from './settings.ts';

function hoursOf(stored: Record<string, { open: string; close: string } | null>): HoursFile {
  return Object.fromEntries(WEEKDAYS_FROM_MONDAY.map((day) => [day, stored[day] ?? null])) as HoursFile;
}

const WEEKDAYS_FROM_MONDAY = [...WEEKDAYS.slice(1), WEEKDAYS[0]];

/** The environment's catalog as a catalog file (docs/catalog.md). */
export async function exportCatalog(deps: Deps, tenant: Tenant): Promise<CatalogFile> {
  const rows = await repository.readCatalogRows(deps.db, tenant);
  const stored = settingsFrom(await findSettings(deps.db, tenant));
  return {
    format: CATALOG_FORMAT,
    settings: {
      frequency_discounts: {
        'one-time': stored.frequency_discounts['one-time'] ?? 0,
        weekly: stored.frequency_discounts.weekly ?? 0,
        'bi-weekly': stored.frequency_discounts['bi-weekly'] ?? 0,
        monthly: stored.frequency_discounts.monthly ?? 0,
      },
      cancellation_policy: {
        free_cancellation_hours: stored.cancellation_policy.free_cancellation_hours ?? 0,
        late_cancellation_fee_percent: stored.cancellation_policy.late_cancellation_fee_percent ?? 0,
        in_progress_fee_percent: stored.cancellation_policy.in_progress_fee_percent ?? 0,
      },
    },
    industries: rows.industries.map((industry) => ({
      id: industry.id,
      slug: industry.slug,
      name: industry.name,
      description: industry.description,
      icon: industry.icon,
      configuration_type: industry.configuration_type,
      is_active: industry.is_active,
      categories: rows.product_categories
        .filter((category) => category.industry_id === industry.id)
        .map((category) => ({
          id: category.id,
          slug: category.slug,
          name: category.name,
          products: rows.products
            .filter((product) => product.category_id === category.id)
            .map((product) => ({
              id: product.id,
              slug: product.slug,
              name: product.name,
              description: product.description,
              base_price: product.base_price,
              minutes: product.minutes,
              in_catalog: product.in_catalog,
              room: product.room,
            })),
        })),
      extras: rows.extras
        .filter((extra) => extra.industry_id === industry.id)
        .map((extra) => ({
          id: extra.id,
          slug: extra.slug,
          name: extra.name,
          description: extra.description,
          price: extra.price,
          price_type: extra.price_type,
          unit_label: extra.unit_label,
          minutes: extra.minutes,
        })),
    })),
    zones: rows.zones.map((zone) => ({
      id: zone.id,
      name: zone.name,
      timezone: zone.timezone,
      zips: zone.zips,
      industries: zone.industries,
      hours: hoursOf(zone.hours),
      slot_interval_minutes: zone.slot_interval_minutes,
      travel_buffer_minutes: zone.travel_buffer_minutes,
      lead_time_minutes: zone.lead_time_minutes,
      price_adjustment_percent: zone.price_adjustment_percent,
      tax_rate: zone.tax_rate,
      is_active: zone.is_active,
    })),
    staff: rows.staff.map((member) => ({
      id: member.id,
      name: member.name,
      email: member.email,
      phone: member.phone,
      zones: member.zones,
      industries: member.industries,
      hours: hoursOf(member.hours),
      is_active: member.is_active,
    })),
    coupons: rows.coupons.map((coupon) => ({
      id: coupon.id,
      code: coupon.code,
      description: coupon.description,
      percent_off: coupon.percent_off,
      amount_off: coupon.amount_off,
      valid_from: isoTimestamp(coupon.valid_from),
      valid_until: isoTimestamp(coupon.valid_until),
      max_redemptions: coupon.max_redemptions,
      industries: coupon.industries,
      is_active: coupon.is_active,
    })),
  };
}

/**
 * Gives each item of the file a row id: the id the file names when this environment has that
 * row, else the row with the same natural key that no other item took, else a new id.
 */
function resolveIds(
  items: { id?: string; parent: string | null; key: string }[],
  existing: repository.ExistingRow[],
  kind: IdKind,
): string[] {
  const known = new Set(existing.map((row) => row.id));
  const taken = new Set<string>();
  const resolved: (string | undefined)[] = items.map((item) => {
    if (item.id && known.has(item.id) && !taken.has(item.id)) {
      taken.add(item.id);
      return item.id;
    }
    return undefined;
  });
  return items.map((item, index) => {
    const already = resolved[index];
    if (already) return already;
    const match = existing.find((row) => !taken.has(row.id) && row.parent === item.parent && row.key === item.key);
    if (match) {
      taken.add(match.id);
      return match.id;
    }
    return newId(kind);
  });
}

const v = (value: unknown): SQL => sql`${value}`;
const json = (value: unknown): SQL => sql`${JSON.stringify(value)}::jsonb`;
const texts = (values: readonly string[]): SQL => textArray(values);

export interface ImportSummary {
  industries: number;
  categories: number;
  products: number;
  extras: number;
  zones: number;
  staff: number;
  coupons: number;
}

/** Writes a checked catalog file into the environment (call inside a transaction; the demo seeds with it). */
export async function applyCatalog(tx: Sql, tenant: Tenant, file: CatalogFile, now: Date): Promise<ImportSummary> {
  const existing = await repository.readExistingRows(tx, tenant);
  const industryIds = resolveIds(
    file.industries.map((i) => ({ id: i.id, parent: null, key: i.slug })),
    existing.industries,
    'industry',
  );

  const categories = file.industries.flatMap((industry, i) =>
    industry.categories.map((category) => ({ category, industryId: industryIds[i] as string })),
  );
  const categoryIds = resolveIds(
    categories.map(({ category, industryId }) => ({ id: category.id, parent: industryId, key: category.slug })),
    existing.product_categories,
    'productCategory',
  );
  const products = categories.flatMap(({ category, industryId }, c) =>
    category.products.map((product) => ({ product, industryId, categoryId: categoryIds[c] as string })),
  );
  const productIds = resolveIds(
    products.map(({ product, industryId }) => ({ id: product.id, parent: industryId, key: product.slug })),
    existing.products,
    'product',
  );
  const extras = file.industries.flatMap((industry, i) =>
    industry.extras.map((extra) => ({ extra, industryId: industryIds[i] as string })),
  );
  const extraIds = resolveIds(
    extras.map(({ extra, industryId }) => ({ id: extra.id, parent: industryId, key: extra.slug })),
    existing.extras,
    'extra',
  );
  const zoneIds = resolveIds(
    file.zones.map((zone) => ({ id: zone.id, parent: null, key: zone.name.toLowerCase() })),
    existing.zones,
    'zone',
  );
  const zoneIdByName = new Map(file.zones.map((zone, z) => [zone.name.toLowerCase(), zoneIds[z] as string]));
  const staffIds = resolveIds(
    file.staff.map((member) => ({
      id: member.id,
      parent: null,
      key: `${member.email?.toLowerCase() ?? ''}|${member.name.toLowerCase()}`,
    })),
    existing.staff,
    'staff',
  );
  const couponIds = resolveIds(
    file.coupons.map((coupon) => ({ id: coupon.id, parent: null, key: coupon.code.toLowerCase() })),
    existing.coupons,
    'coupon',
  );

  await repository.releaseUniqueKeys(tx, tenant, industryIds, couponIds);
  const live = { archived_at: v(null) };
  await repository.upsertRows(
    tx,
    tenant,
    'industries',
    file.industries.map((industry, i) => ({
      id: v(industryIds[i]),
      slug: v(industry.slug),
      name: v(industry.name),
      description: v(industry.description ?? ''),
      icon: v(industry.icon ?? ''),
      configuration_type: v(industry.configuration_type),
      is_active: v(industry.is_active ?? true),
      position: v(i),
      ...live,
    })),
  );
  await repository.upsertRows(
    tx,
    tenant,
    'product_categories',
    categories.map(({ category, industryId }, c) => ({
      id: v(categoryIds[c]),
      industry_id: v(industryId),
      slug: v(category.slug),
      name: v(category.name),
      position: v(c),
      ...live,
    })),
  );
  await repository.upsertRows(
    tx,
    tenant,
    'products',
    products.map(({ product, industryId, categoryId }, p) => ({
      id: v(productIds[p]),
      industry_id: v(industryId),
      category_id: v(categoryId),
      slug: v(product.slug),
      name: v(product.name),
      description: v(product.description ?? ''),
      base_price: v(product.base_price),
      minutes: v(product.minutes),
      in_catalog: v(product.in_catalog ?? true),
      room: v(product.room ?? null),
      position: v(p),
      ...live,
    })),
  );
  await repository.upsertRows(
    tx,
    tenant,
    'extras',
    extras.map(({ extra, industryId }, e) => ({
      id: v(extraIds[e]),
      industry_id: v(industryId),
      slug: v(extra.slug),
      name: v(extra.name),
      description: v(extra.description ?? ''),
      price: v(extra.price),
      price_type: v(extra.price_type),
      unit_label: v(extra.unit_label ?? null),
      minutes: v(extra.minutes ?? 0),
      position: v(e),
      ...live,
    })),
  );
  await repository.upsertRows(
    tx,
    tenant,
    'zones',
    file.zones.map((zone, z) => ({
      id: v(zoneIds[z]),
      name: v(zone.name),
      timezone: v(zone.timezone),
      industries: texts(zone.industries),
      hours: json(hoursOf(zone.hours)),
      slot_interval_minutes: v(zone.slot_interval_minutes),
      travel_buffer_minutes: v(zone.travel_buffer_minutes),
      lead_time_minutes: v(zone.lead_time_minutes),
      price_adjustment_percent: v(zone.price_adjustment_percent),
      tax_rate: v(zone.tax_rate),
      is_active: v(zone.is_active ?? true),
      position: v(z),
      ...live,
    })),
  );
  await repository.upsertRows(
    tx,
    tenant,
    'staff',
    file.staff.map((member, s) => ({
      id: v(staffIds[s]),
      name: v(member.name),
      email: v(member.email ?? null),
      phone: v(member.phone ?? null),
      industries: texts(member.industries),
      hours: json(hoursOf(member.hours)),
      is_active: v(member.is_active ?? true),
      position: v(s),
      ...live,
    })),
  );
  await repository.upsertRows(
    tx,
    tenant,
    'coupons',
    file.coupons.map((coupon, c) => ({
      id: v(couponIds[c]),
      code: v(coupon.code),
      description: v(coupon.description ?? ''),
      percent_off: v(coupon.percent_off ?? null),
      amount_off: v(coupon.amount_off ?? null),
      valid_from: sql`${coupon.valid_from ?? null}::timestamptz`,
      valid_until: sql`${coupon.valid_until ?? null}::timestamptz`,
      max_redemptions: v(coupon.max_redemptions ?? null),
      industries: coupon.industries ? texts(coupon.industries) : sql`null::text[]`,
      is_active: v(coupon.is_active ?? true),
      position: v(c),
      ...live,
    })),
  );
  const kept: Record<repository.CatalogTable, string[]> = {
    industries: industryIds,
    product_categories: categoryIds,
    products: productIds,
    extras: extraIds,
    zones: zoneIds,
    staff: staffIds,
    coupons: couponIds,
  };
  for (const table of repository.CATALOG_TABLES) await repository.archiveOthers(tx, tenant, table, kept[table], now);
  await repository.replaceZoneZips(
    tx,
    tenant,
    file.zones.flatMap((zone, z) => zone.zips.map((zip) => ({ zoneId: zoneIds[z] as string, zip }))),
  );
  await repository.replaceStaffZones(
    tx,
    tenant,
    file.staff.flatMap((member, s) =>
      member.zones.map((name) => ({
        staffId: staffIds[s] as string,
        zoneId: zoneIdByName.get(name.toLowerCase()) as string,
      })),
    ),
  );
  await repository.saveSettings(tx, tenant, file.settings, now);
  return {
    industries: industryIds.length,
    categories: categoryIds.length,
    products: productIds.length,
    extras: extraIds.length,
    zones: zoneIds.length,
    staff: staffIds.length,
    coupons: couponIds.length,
  };
}

/** Checks a catalog file's text and replaces the environment's catalog with it, atomically. */
export async function importCatalog(deps: Deps, tenant: Tenant, text: string): Promise<ImportSummary> {
  const file = parseCatalogFile(text);
  return inTransaction(deps, (deps) => applyCatalog(deps.db, tenant, file, deps.clock.now()));
}
