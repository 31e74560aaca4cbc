// Coupons (CONTRACT §11): created, changed and archived through /v1/coupons and the dashboard,
// by the catalog file's rules. Pricing reads them live on every request; a booking keeps the
// coupon terms it was priced with, so nothing here changes what was already booked.
import { constraintViolated, isoTimestamp } from '../../core/db.ts';
import { type Deps, inTransaction } from '../../core/deps.ts';
import { AppError, found, invalidParameter, notFound } from '../../core/errors.ts';
import { checkInput } from '../../core/http/validation.ts';
import { newId } from '../../core/ids.ts';
import { type Page, pageOf, pageRequest, parseIds } from '../../core/paging.ts';
import type { Tenant } from '../../core/tenant.ts';
import { couponProblems } from './catalog-file.ts';
import * as repository from './coupons.repository.ts';
import { type CouponListQuery, type CouponView, NewCouponBody, UpdateCouponBody } from './coupons.schemas.ts';

export function couponView(row: repository.CouponRecord): CouponView {
  return {
    id: row.id,
    object: 'coupon',
    code: row.code,
    description: row.description,
    percent_off: row.percent_off === null ? null : Number(row.percent_off),
    amount_off: row.amount_off,
    valid_from: isoTimestamp(row.valid_from),
    valid_until: isoTimestamp(row.valid_until),
    max_redemptions: row.max_redemptions,
    times_redeemed: row.times_redeemed,
    industries: row.industries,
    is_active: row.is_active,
    created_at: isoTimestamp(row.created_at),
  };
}

export async function listCoupons(deps: Deps, tenant: Tenant, query: CouponListQuery): Promise<Page<CouponView>> {
  const page = pageRequest(query);
  const found = await repository.listCoupons(deps.db, tenant, { ids: parseIds(query.ids, 'coupon') }, page);
  return pageOf(page, found, couponView);
}

export async function getCoupon(deps: Deps, tenant: Tenant, id: string): Promise<CouponView> {
  return couponView(found(await repository.findCoupon(deps.db, tenant, id), 'coupon', id));
}

/** The first rule the coupon breaks, as the API's 400 naming the field. */
async function checkRules(
  deps: Deps,
  tenant: Tenant,
  coupon: Parameters<typeof couponProblems>[0],
  industriesToCheck: string[] | null | undefined,
) {
  const known = industriesToCheck?.length ? await repository.industrySlugs(deps.db, tenant) : new Set<string>();
  const problems = couponProblems({ ...coupon, industries: industriesToCheck ?? null }, (slug) => known.has(slug));
  const first = problems[0];
  if (!first) return;
  if (!first.path) throw invalidParameter('percent_off', 'Give exactly one of percent_off and amount_off.');
  throw invalidParameter(first.path, `Invalid ${first.path}: ${first.message}.`);
}

function codeTaken(code: string): AppError {
  return new AppError('resource_already_exists', `A coupon with the code ${code} already exists.`, {
    param: 'code',
  });
}

export async function createCoupon(deps: Deps, tenant: Tenant, input: NewCouponBody): Promise<CouponView> {
  const body = checkInput(NewCouponBody, input);
  await checkRules(deps, tenant, body, body.industries);
  const id = newId('coupon');
  try {
    return await inTransaction(deps, async (deps) => {
      await repository.insertCoupon(
        deps.db,
        tenant,
        id,
        {
          code: body.code,
          description: body.description ?? '',
          percent_off: body.percent_off ?? null,
          amount_off: body.amount_off ?? null,
          valid_from: body.valid_from ?? null,
          valid_until: body.valid_until ?? null,
          max_redemptions: body.max_redemptions ?? null,
          industries: body.industries ?? null,
          is_active: body.is_active ?? true,
        },
        deps.clock.now(),
      );
      return getCoupon(deps, tenant, id);
    });
  } catch (error) {
    // the unique index decides, so two servers creating one code at once cannot both succeed
    if (constraintViolated(error, repository.COUPON_CODE_CONSTRAINT)) throw codeTaken(body.code);
    throw error;
  }
}

export async function updateCoupon(
  deps: Deps,
  tenant: Tenant,
  id: string,
  input: UpdateCouponBody,
): Promise<CouponView> {
  const body = checkInput(UpdateCouponBody, input);
  try {
    return await inTransaction(deps, async (deps) => {
      // locked, so a booking redeeming it now waits, and the redemption count below is final
      const row = found(await repository.findCoupon(deps.db, tenant, id, { lock: true }), 'coupon', id);
      const current = couponView(row);
      const merged = { ...current, ...definedOf(body) };
      const discountChanges = merged.percent_off !== current.percent_off || merged.amount_off !== current.amount_off;
      if (discountChanges && current.times_redeemed > 0) {
        throw new AppError(
          'resource_in_use',
          `The coupon ${current.code} has been redeemed ${current.times_redeemed} time(s) (${current.id}); ` +
            'its discount cannot change. Make a new coupon instead.',
          { param: body.percent_off !== undefined ? 'percent_off' : 'amount_off' },
        );
      }
      await checkRules(deps, tenant, merged, body.industries);
      if (merged.max_redemptions !== null && merged.max_redemptions < current.times_redeemed) {
        throw invalidParameter(
          'max_redemptions',
          `Invalid max_redemptions: the coupon has already been redeemed ${current.times_redeemed} time(s).`,
        );
      }
      await repository.updateCoupon(deps.db, tenant, id, definedOf(body));
      return getCoupon(deps, tenant, id);
    });
  } catch (error) {
    if (constraintViolated(error, repository.COUPON_CODE_CONSTRAINT)) throw codeTaken(body.code ?? '');
    throw error;
  }
}

/** The fields a PATCH sends (null included: it clears). */
function definedOf<T extends object>(body: T): Partial<T> {
  return Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined)) as Partial<T>;
}

/** Archives the coupon: gone from lists and reads (404), and pricing refuses its code. */
export async function deleteCoupon(deps: Deps, tenant: Tenant, id: string): Promise<void> {
  const archived = await repository.archiveCoupon(deps.db, tenant, id, deps.clock.now());
  if (!archived) throw notFound('coupon', id);
}
