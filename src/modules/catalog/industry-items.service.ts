// Catalog setup (CONTRACT §11): an industry's products and extras, changed one at a time by the
// API and the dashboard, under the industry's lock (industries.service.ts). A change counts
// from the next price or availability request; bookings keep the prices they stored.
import type { Deps } from '../../core/deps.ts';
import { inTransaction } from '../../core/deps.ts';
import { AppError, invalidParameter } from '../../core/errors.ts';
import { checkInput } from '../../core/http/validation.ts';
import type { Tenant } from '../../core/tenant.ts';
import { extraProblem } from './catalog-file.ts';
import * as repository from './industries.repository.ts';
import {
  ExtraChangesBody,
  type ExtraObject,
  NewExtraBody,
  NewProductBody,
  ProductChangesBody,
  type ProductObject,
} from './industries.schemas.ts';
import { addItem, changedSlug, extraView, itemOr404, lockedItem, productView } from './industries.service.ts';
import { LAST, placeItem } from './positions.ts';

/** A category of the industry named in a body's category_id (400 resource_not_found otherwise). */
async function categoryOf(deps: Deps, tenant: Tenant, industry: repository.IndustryRow, categoryId: string) {
  const category = await repository.findCategory(deps.db, tenant, categoryId);
  if (!category || category.industry_id !== industry.id) {
    throw new AppError('resource_not_found', `No such category in ${industry.slug}: '${categoryId}'.`, {
      param: 'category_id',
    });
  }
  return category;
}

export async function getProduct(deps: Deps, tenant: Tenant, id: string): Promise<ProductObject> {
  return productView(await itemOr404(deps, tenant, 'products', id));
}

export async function createProduct(deps: Deps, tenant: Tenant, industrySlug: string, input: unknown) {
  const body = checkInput(NewProductBody, input);
  const row = await addItem(deps, tenant, industrySlug, 'products', body, async (deps, industry) => ({
    category_id: (await categoryOf(deps, tenant, industry, body.category_id)).id,
    description: body.description ?? '',
    base_price: body.base_price,
    minutes: body.minutes,
    in_catalog: body.in_catalog ?? true,
    room: null,
  }));
  return productView(row);
}

export async function updateProduct(deps: Deps, tenant: Tenant, id: string, input: unknown) {
  const body = checkInput(ProductChangesBody, input);
  return inTransaction(deps, async (deps) => {
    const { industry, row } = await lockedItem(deps, tenant, 'products', id);
    const category =
      body.category_id === undefined ? undefined : await categoryOf(deps, tenant, industry, body.category_id);
    const slug = await changedSlug(deps, tenant, 'products', industry.id, row, body.slug);
    const { name, description, base_price, minutes, in_catalog } = body;
    const moved = category !== undefined && category.id !== row.category_id;
    await repository.updateRow(deps.db, tenant, 'products', id, {
      name,
      slug,
      description,
      base_price,
      minutes,
      in_catalog,
      category_id: moved ? category.id : undefined,
    });
    if (moved) {
      await placeItem(deps, tenant, 'products', row.category_id);
      await placeItem(deps, tenant, 'products', category.id, id, body.position ?? LAST);
    } else if (body.position !== undefined) {
      await placeItem(deps, tenant, 'products', row.category_id, id, body.position);
    }
    return getProduct(deps, tenant, id);
  });
}

export async function deleteProduct(deps: Deps, tenant: Tenant, id: string): Promise<void> {
  await inTransaction(deps, async (deps) => {
    const { industry, row } = await lockedItem(deps, tenant, 'products', id);
    if (row.room !== null && industry.configuration_type === 'room_based') {
      throw new AppError(
        'resource_in_use',
        `${id} is the ${row.room} product of the room_based industry ${industry.slug} (${industry.id}), ` +
          'which prices every booking with it: change it instead.',
      );
    }
    await repository.archiveRow(deps.db, tenant, 'products', id, deps.clock.now());
    await placeItem(deps, tenant, 'products', row.category_id);
  });
}

function checkExtra(extra: { price_type: string; unit_label?: string | null }) {
  if (extraProblem(extra)) throw invalidParameter('unit_label', 'A per_unit extra needs a unit_label (e.g. "window").');
}

export async function getExtra(deps: Deps, tenant: Tenant, id: string): Promise<ExtraObject> {
  return extraView(await itemOr404(deps, tenant, 'extras', id));
}

export async function createExtra(deps: Deps, tenant: Tenant, industrySlug: string, input: unknown) {
  const body = checkInput(NewExtraBody, input);
  checkExtra(body);
  const row = await addItem(deps, tenant, industrySlug, 'extras', body, async () => ({
    description: body.description ?? '',
    price: body.price,
    price_type: body.price_type,
    unit_label: body.unit_label ?? null,
    minutes: body.minutes ?? 0,
  }));
  return extraView(row);
}

export async function updateExtra(deps: Deps, tenant: Tenant, id: string, input: unknown) {
  const body = checkInput(ExtraChangesBody, input);
  return inTransaction(deps, async (deps) => {
    const { industry, row } = await lockedItem(deps, tenant, 'extras', id);
    checkExtra({ ...row, ...body });
    const slug = await changedSlug(deps, tenant, 'extras', industry.id, row, body.slug);
    const { name, description, price, price_type, unit_label, minutes } = body;
    await repository.updateRow(deps.db, tenant, 'extras', id, {
      name,
      slug,
      description,
      price,
      price_type,
      unit_label,
      minutes,
    });
    if (body.position !== undefined) await placeItem(deps, tenant, 'extras', industry.id, id, body.position);
    return getExtra(deps, tenant, id);
  });
}

export async function deleteExtra(deps: Deps, tenant: Tenant, id: string): Promise<void> {
  await inTransaction(deps, async (deps) => {
    const { industry } = await lockedItem(deps, tenant, 'extras', id);
    await repository.archiveRow(deps.db, tenant, 'extras', id, deps.clock.now());
    await placeItem(deps, tenant, 'extras', industry.id);
  });
}
