// Catalog setup (CONTRACT §11): industries and their categories (products and extras are in
// industry-items.service.ts), changed one at a time by the API and the dashboard. Pricing and availability read these tables on
// every request, so a change counts from the next one; bookings keep the prices they stored.
// DELETE archives, so that bookings and invoices naming an item still find it.
import { constraintViolated } from '../../core/db.ts';
import { type Deps, inTransaction } from '../../core/deps.ts';
import { AppError, found, invalidParameter, notFound } from '../../core/errors.ts';
import { checkInput } from '../../core/http/validation.ts';
import { newId } from '../../core/ids.ts';
import type { Tenant } from '../../core/tenant.ts';
import { atCatalogVersion } from './catalog-cache.ts';
import { ROOMS, roomProblems } from './catalog-file.ts';
import * as repository from './industries.repository.ts';
import {
  CategoryChangesBody,
  type CategoryObject,
  type ExtraObject,
  IndustryChangesBody,
  NewCategoryBody,
  NewIndustryBody,
  type ProductObject,
} from './industries.schemas.ts';
import { freeSlug, LAST, placeItem, slugConflict } from './positions.ts';

export type IndustryView = repository.IndustryRow;

export function industryView(row: repository.IndustryRow): IndustryView {
  const { id, name, slug, description, icon, configuration_type, is_active } = row;
  return { id, name, slug, description, icon, configuration_type, is_active };
}

export function categoryView(row: repository.CategoryRow): CategoryObject {
  return { id: row.id, name: row.name, slug: row.slug, position: row.position };
}

export function productView(row: repository.ProductRow): ProductObject {
  const { id, name, base_price, description, in_catalog, category_id, slug, minutes, room, position } = row;
  return { id, name, base_price, description, in_catalog, category_id, slug, minutes, room, position };
}

export function extraView(row: repository.ExtraRow): ExtraObject {
  const { id, name, description, price, price_type, unit_label, slug, minutes, position } = row;
  return { id, name, description, price, price_type, unit_label, slug, minutes, position };
}

const INDUSTRY_SLUG_TAKEN = 'industries_slug';

/** The industries (GET /v1/services/industries, the dashboard), through the catalog cache. */
export function listIndustries(deps: Deps, tenant: Tenant, query: { include_inactive?: boolean } = {}) {
  const includeInactive = query.include_inactive === true;
  return atCatalogVersion(deps, tenant, JSON.stringify(['industries', includeInactive]), async () => {
    const rows = await repository.listIndustries(deps.db, tenant, includeInactive);
    return { data: rows.map(industryView) };
  });
}

export async function industryBySlug(deps: Deps, tenant: Tenant, slug: string, lock = false) {
  return found(await repository.findIndustry(deps.db, tenant, slug, lock), 'industry', slug);
}

export async function getIndustry(deps: Deps, tenant: Tenant, slug: string): Promise<IndustryView> {
  return industryView(await industryBySlug(deps, tenant, slug));
}

/** An industry with everything under it, inactive or not (the dashboard's page of one industry). */
export async function industryMenu(deps: Deps, tenant: Tenant, slug: string) {
  const industry = await industryBySlug(deps, tenant, slug);
  const categories = await repository.listItems(deps.db, tenant, 'product_categories', industry.id);
  const products = await repository.listItems(deps.db, tenant, 'products', industry.id);
  const extras = await repository.listItems(deps.db, tenant, 'extras', industry.id);
  return {
    industry: industryView(industry),
    currency: await repository.findCurrency(deps.db, tenant),
    categories: categories.map((category) => ({
      ...categoryView(category),
      products: products.filter((p) => p.category_id === category.id).map(productView),
    })),
    extras: extras.map(extraView),
  };
}

export async function createIndustry(deps: Deps, tenant: Tenant, input: unknown): Promise<IndustryView> {
  const body = checkInput(NewIndustryBody, input);
  const rooms = body.room_products ? ROOMS : [];
  if (roomProblems(body.configuration_type, rooms).length > 0) {
    if (body.configuration_type === 'room_based') {
      throw new AppError(
        'missing_required_field',
        'A room_based industry needs room_products: its visit, bedroom and bathroom products.',
        { param: 'room_products' },
      );
    }
    throw invalidParameter('room_products', 'Only room_based industries have room_products.');
  }
  const now = deps.clock.now();
  try {
    return await inTransaction(deps, async (deps) => {
      await repository.lockIndustries(deps.db, tenant);
      const taken = await repository.slugsIn(deps.db, tenant, 'industries');
      if (body.slug && taken.some((row) => row.slug === body.slug)) throw slugConflict('industry', 'environment');
      const slug = body.slug ?? freeSlug(body.name, 'industry', taken);
      await repository.releaseArchivedIndustrySlug(deps.db, tenant, slug);
      const id = newId('industry');
      await repository.insertIndustry(
        deps.db,
        tenant,
        {
          id,
          slug,
          name: body.name,
          description: body.description ?? '',
          icon: body.icon ?? '',
          configuration_type: body.configuration_type,
          is_active: body.is_active ?? true,
          position: 0,
        },
        now,
      );
      await placeItem(deps, tenant, 'industries', undefined, id, body.position ?? LAST);
      if (body.room_products) {
        const category = { id: newId('productCategory'), industry_id: id, slug: 'rooms', name: 'Rooms', position: 0 };
        await repository.insertItem(deps.db, tenant, 'product_categories', category, now);
        const slugs: { slug: string }[] = [];
        for (const [position, room] of ROOMS.entries()) {
          const product = body.room_products[room];
          const productSlug = freeSlug(product.name, room, slugs);
          slugs.push({ slug: productSlug });
          await repository.insertItem(
            deps.db,
            tenant,
            'products',
            {
              id: newId('product'),
              industry_id: id,
              category_id: category.id,
              slug: productSlug,
              name: product.name,
              description: '',
              base_price: product.base_price,
              minutes: product.minutes,
              in_catalog: true,
              room,
              position,
            },
            now,
          );
        }
      }
      return getIndustry(deps, tenant, slug);
    });
  } catch (error) {
    // two creations racing for one slug: the unique index has the last word
    if (constraintViolated(error, INDUSTRY_SLUG_TAKEN)) throw slugConflict('industry', 'environment');
    throw error;
  }
}

export async function updateIndustry(deps: Deps, tenant: Tenant, slug: string, input: unknown) {
  const body = checkInput(IndustryChangesBody, input);
  for (const fixed of ['slug', 'configuration_type'] as const) {
    if (body[fixed] !== undefined) {
      throw invalidParameter(fixed, `An industry's ${fixed} cannot change after creation; create a new industry.`);
    }
  }
  return inTransaction(deps, async (deps) => {
    await repository.lockIndustries(deps.db, tenant);
    const industry = await industryBySlug(deps, tenant, slug);
    const { name, description, icon, is_active } = body;
    await repository.updateRow(deps.db, tenant, 'industries', industry.id, { name, description, icon, is_active });
    if (body.position !== undefined) await placeItem(deps, tenant, 'industries', undefined, industry.id, body.position);
    return getIndustry(deps, tenant, slug);
  });
}

const ITEM_KINDS = { product_categories: 'category', products: 'product', extras: 'extra' } as const;

/** Locks the industry an item belongs to, then reads the item: the industry's writers queue there. */
export async function lockedItem<T extends repository.ItemTable>(deps: Deps, tenant: Tenant, table: T, id: string) {
  const industry = await repository.lockIndustryOf(deps.db, tenant, table, id);
  const row = industry && (await repository.findItem(deps.db, tenant, table, id));
  if (!industry || !row) throw notFound(ITEM_KINDS[table], id);
  return { industry, row };
}

/** The slug an item changes to, checked within its industry; undefined when the change keeps it. */
export async function changedSlug(
  deps: Deps,
  tenant: Tenant,
  table: repository.ItemTable,
  industryId: string,
  row: { id: string; name: string },
  slug: string | undefined,
) {
  return slug === undefined ? undefined : chosenSlug(deps, tenant, table, industryId, { ...row, slug });
}

export async function chosenSlug(
  deps: Deps,
  tenant: Tenant,
  table: repository.ItemTable,
  industryId: string,
  wanted: { slug?: string; name: string; id?: string },
) {
  const kind = ITEM_KINDS[table];
  const taken = (await repository.slugsIn(deps.db, tenant, table, industryId)).filter((row) => row.id !== wanted.id);
  if (wanted.slug === undefined) return freeSlug(wanted.name, kind, taken);
  if (taken.some((row) => row.slug === wanted.slug)) throw slugConflict(kind, 'industry');
  return wanted.slug;
}

/** An item, not archived, by id (404 otherwise). */
export async function itemOr404<T extends repository.ItemTable>(deps: Deps, tenant: Tenant, table: T, id: string) {
  return found(await repository.findItem(deps.db, tenant, table, id), ITEM_KINDS[table], id);
}

const ITEM_ID_KINDS = { product_categories: 'productCategory', products: 'product', extras: 'extra' } as const;

/**
 * Adds an item to an industry under the industry's lock: `fields` reads what else the item needs
 * (its category), then the slug is checked or made within the industry and the item placed in its list.
 */
export async function addItem<T extends repository.ItemTable>(
  deps: Deps,
  tenant: Tenant,
  industrySlug: string,
  table: T,
  body: { slug?: string; name: string; position?: number },
  fields: (
    deps: Deps,
    industry: repository.IndustryRow,
  ) => Promise<Omit<repository.ItemRows[T], 'id' | 'industry_id' | 'slug' | 'name' | 'position'>>,
): Promise<repository.ItemRows[T]> {
  return inTransaction(deps, async (deps) => {
    const industry = await industryBySlug(deps, tenant, industrySlug, true);
    const more = await fields(deps, industry);
    const slug = await chosenSlug(deps, tenant, table, industry.id, body);
    const id = newId(ITEM_ID_KINDS[table]);
    const row = { id, industry_id: industry.id, slug, name: body.name, ...more, position: 0 } as repository.ItemRows[T];
    await repository.insertItem(deps.db, tenant, table, row, deps.clock.now());
    const scope = (row as unknown as Record<string, string>)[repository.ITEM_TABLES[table]];
    await placeItem(deps, tenant, table, scope, id, body.position ?? LAST);
    return itemOr404(deps, tenant, table, id);
  });
}

export async function getCategory(deps: Deps, tenant: Tenant, id: string): Promise<CategoryObject> {
  return categoryView(await itemOr404(deps, tenant, 'product_categories', id));
}

export async function createCategory(deps: Deps, tenant: Tenant, industrySlug: string, input: unknown) {
  const body = checkInput(NewCategoryBody, input);
  return categoryView(await addItem(deps, tenant, industrySlug, 'product_categories', body, async () => ({})));
}

export async function updateCategory(deps: Deps, tenant: Tenant, id: string, input: unknown) {
  const body = checkInput(CategoryChangesBody, input);
  return inTransaction(deps, async (deps) => {
    const { industry, row } = await lockedItem(deps, tenant, 'product_categories', id);
    const slug = await changedSlug(deps, tenant, 'product_categories', industry.id, row, body.slug);
    await repository.updateRow(deps.db, tenant, 'product_categories', id, { name: body.name, slug });
    if (body.position !== undefined) {
      await placeItem(deps, tenant, 'product_categories', industry.id, id, body.position);
    }
    return categoryView(await itemOr404(deps, tenant, 'product_categories', id));
  });
}

export async function deleteCategory(deps: Deps, tenant: Tenant, id: string): Promise<void> {
  await inTransaction(deps, async (deps) => {
    const { industry } = await lockedItem(deps, tenant, 'product_categories', id);
    const products = await repository.productIdsIn(deps.db, tenant, id, 5);
    if (products.length > 0) {
      throw new AppError(
        'resource_in_use',
        `The category still has products (${products.join(', ')}): archive them or move them to another category first.`,
      );
    }
    await repository.archiveRow(deps.db, tenant, 'product_categories', id, deps.clock.now());
    await placeItem(deps, tenant, 'product_categories', industry.id);
  });
}
