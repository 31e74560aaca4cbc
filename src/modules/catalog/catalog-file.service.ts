// Export and import of an environment's catalog. Import is one transaction that replaces the
// catalog: items keep their ids when the file names them (or keeps their slug, code or name),
// and items the file drops are archived, so bookings made earlier still resolve.
import { isoTimestamp, type Sql } from '../../core/db.ts';
import { type Deps, inTransaction } from '../../core/deps.ts';
import { type IdKind, newId } from '../../core/ids.ts';
import type { Tenant } from '../../core/tenant.ts';
import { WEEKDAYS } from '../availability/index.ts';
import { findSettings } from './catalog.repository.ts';
import * as repository from './catalog-file.repository.ts';
import { CATALOG_FORMAT, type CatalogFile, type HoursFile, parseCatalogFile } from './catalog-file.ts';
import { settingsFrom } from './settings.ts';
import { rewriteCoverage } from './zones.repository.ts';

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
      ...industry,
      categories: rows.product_categories
        .filter((category) => category.industry_id === industry.id)
        .map(({ industry_id, ...category }) => ({
          ...category,
          products: rows.products
            .filter((product) => product.category_id === category.id)
            .map(({ category_id, ...product }) => product),
        })),
      extras: rows.extras
        .filter((extra) => extra.industry_id === industry.id)
        .map(({ industry_id, ...extra }) => extra),
    })),
    zones: rows.zones.map((zone) => ({ ...zone, hours: hoursOf(zone.hours) })),
    staff: rows.staff.map((member) => ({ ...member, hours: hoursOf(member.hours) })),
    coupons: rows.coupons.map((coupon) => ({
      ...coupon,
      valid_from: isoTimestamp(coupon.valid_from),
      valid_until: isoTimestamp(coupon.valid_until),
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

const ID_KINDS: Record<repository.CatalogTable, IdKind> = {
  industries: 'industry',
  product_categories: 'productCategory',
  products: 'product',
  extras: 'extra',
  zones: 'zone',
  staff: 'staff',
  coupons: 'coupon',
};

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
  const idsOf = <T extends { id?: string }>(
    table: repository.CatalogTable,
    items: T[],
    key: (item: T) => string,
    parent: (item: T) => string | null = () => null,
  ) =>
    resolveIds(
      items.map((item) => ({ id: item.id, parent: parent(item), key: key(item) })),
      existing[table],
      ID_KINDS[table],
    );
  const industryIds = idsOf('industries', file.industries, (industry) => industry.slug);
  const categories = file.industries.flatMap((industry, i) =>
    industry.categories.map((category) => ({ ...category, industry_id: industryIds[i] as string })),
  );
  const inIndustry = (item: { industry_id: string }) => item.industry_id;
  const categoryIds = idsOf('product_categories', categories, (category) => category.slug, inIndustry);
  const products = categories.flatMap((category, c) =>
    category.products.map((product) => ({
      ...product,
      industry_id: category.industry_id,
      category_id: categoryIds[c] as string,
    })),
  );
  const productIds = idsOf('products', products, (product) => product.slug, inIndustry);
  const extras = file.industries.flatMap((industry, i) =>
    industry.extras.map((extra) => ({ ...extra, industry_id: industryIds[i] as string })),
  );
  const extraIds = idsOf('extras', extras, (extra) => extra.slug, inIndustry);
  const zoneIds = idsOf('zones', file.zones, (zone) => zone.name.toLowerCase());
  const zoneIdByName = new Map(file.zones.map((zone, z) => [zone.name.toLowerCase(), zoneIds[z] as string]));
  const staffIds = idsOf(
    'staff',
    file.staff,
    (member) => `${member.email?.toLowerCase() ?? ''}|${member.name.toLowerCase()}`,
  );
  const couponIds = idsOf('coupons', file.coupons, (coupon) => coupon.code.toLowerCase());

  await repository.releaseUniqueKeys(tx, tenant, industryIds, couponIds);
  // Only live coupons' codes are unique: a coupon the file drops gives its code up first, in
  // case the file brings an archived coupon (named by id) back with that code.
  await repository.archiveOthers(tx, tenant, 'coupons', couponIds, now);
  const written: [repository.CatalogTable, string[], Record<string, unknown>[]][] = [
    ['industries', industryIds, file.industries],
    ['product_categories', categoryIds, categories],
    ['products', productIds, products],
    ['extras', extraIds, extras],
    ['zones', zoneIds, file.zones.map((zone) => ({ ...zone, hours: hoursOf(zone.hours) }))],
    ['staff', staffIds, file.staff.map((member) => ({ ...member, hours: hoursOf(member.hours) }))],
    ['coupons', couponIds, file.coupons],
  ];
  for (const [table, ids, items] of written) await repository.writeRows(tx, tenant, table, ids, items);
  const kept = Object.fromEntries(written.map(([table, ids]) => [table, ids])) as Record<
    repository.CatalogTable,
    string[]
  >;
  for (const table of repository.CATALOG_TABLES) await repository.archiveOthers(tx, tenant, table, kept[table], now);
  await repository.replaceLinks(
    tx,
    tenant,
    'zone_zips',
    file.zones.flatMap((zone, z) => zone.zips.map((zip) => [zoneIds[z] as string, zip])),
  );
  await rewriteCoverage(tx, tenant);
  await repository.replaceLinks(
    tx,
    tenant,
    'staff_zones',
    file.staff.flatMap((member, s) =>
      member.zones.map((name) => [staffIds[s] as string, zoneIdByName.get(name.toLowerCase()) as string]),
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
