// Settings > Coupons: list, add, edit and archive (after a confirmation step), through the same
// coupon services as /v1/coupons, whose refusals are shown next to the field they name.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../core/deps.ts';
import type { Tenant } from '../../core/tenant.ts';
import { type FieldError, fieldError, formField, formValues, pageNumber, queryValue } from '../../web/forms.ts';
import { html } from '../../web/html.ts';
import {
  type CouponView,
  createCoupon,
  deleteCoupon,
  getCoupon,
  getSettings,
  listCoupons,
  listIndustries,
  updateCoupon,
} from '../catalog/index.ts';
import { sessionTenant } from '../sessions/index.ts';
import {
  archiveConfirmation,
  COUPONS,
  type CouponFormValues,
  couponFormValues,
  couponsView,
  EMPTY_COUPON,
  editCouponView,
} from './coupons.view.ts';
import { PAGE, type RecordRequest, recordRoute } from './pages.ts';
import { confirmForm, pageHeader, sendShell } from './shell.ts';

const COUPON_PAGE = recordRoute('There is no such coupon in this environment.');

function postedValues(request: FastifyRequest): CouponFormValues {
  return {
    code: formField(request, 'code').trim().slice(0, 100),
    description: formField(request, 'description').slice(0, 2000),
    percent_off: formField(request, 'percent_off').trim().slice(0, 30),
    amount_off: formField(request, 'amount_off').trim().slice(0, 30),
    valid_from: formField(request, 'valid_from').trim().slice(0, 30),
    valid_until: formField(request, 'valid_until').trim().slice(0, 30),
    max_redemptions: formField(request, 'max_redemptions').trim().slice(0, 30),
    industries: formValues(request, 'industries').slice(0, 100),
    is_active: formField(request, 'is_active') === '1',
  };
}

// A value the form cannot read is passed on as typed, so that the service's schema refuses it
// with the field's name (and the form shows the message next to it).
const numberOf = (text: string) => (text === '' ? null : /^\d+(\.\d+)?$/.test(text) ? Number(text) : text);
const centsOf = (text: string) =>
  text === '' ? null : /^\d+(\.\d{1,2})?$/.test(text) ? Math.round(Number(text) * 100) : text;
const dayOf = (text: string, time: string) =>
  text === '' ? null : /^\d{4}-\d{2}-\d{2}$/.test(text) ? `${text}T${time}Z` : text;

/** The form as the API's coupon body: money in cents, days as UTC timestamps. */
function couponInput(values: CouponFormValues) {
  return {
    code: values.code,
    description: values.description,
    percent_off: numberOf(values.percent_off),
    amount_off: centsOf(values.amount_off),
    valid_from: dayOf(values.valid_from, '00:00:00'),
    valid_until: dayOf(values.valid_until, '23:59:59'),
    max_redemptions: numberOf(values.max_redemptions),
    industries: values.industries.length > 0 ? values.industries : null,
  } as Parameters<typeof createCoupon>[2];
}

/** The service's refusal, about the industries field as a whole when it names one of them. */
function formErrorOf(error: unknown): FieldError {
  const refused = fieldError(error);
  return { ...refused, param: refused.param?.replace(/\[\d+\]$/, '') };
}

export function couponPages(app: FastifyInstance, deps: Deps): void {
  const formContext = async (tenant: Tenant) => ({
    industries: (await listIndustries(deps, tenant)).data,
    currency: (await getSettings(deps, tenant)).currency,
  });

  const sendList = async (
    request: FastifyRequest,
    reply: FastifyReply,
    form: { values: CouponFormValues; error?: FieldError },
  ) => {
    const tenant = sessionTenant(request.session);
    const list = await listCoupons(deps, tenant, { page: pageNumber(request), per_page: 50 });
    const notice = queryValue(request, 'archived')
      ? 'Coupon archived.'
      : queryValue(request, 'added')
        ? 'Coupon added.'
        : undefined;
    return sendShell(request, reply, {
      title: 'Coupons',
      status: form.error ? 400 : 200,
      content: couponsView(request.session, list, { ...form, ...(await formContext(tenant)) }, notice),
    });
  };

  const sendEdit = async (
    request: RecordRequest,
    reply: FastifyReply,
    coupon: CouponView,
    options: { values?: CouponFormValues; error?: FieldError; saved?: boolean } = {},
  ) =>
    sendShell(request, reply, {
      title: coupon.code,
      status: options.error ? 400 : 200,
      content: editCouponView(request.session, coupon, options.values ?? couponFormValues(coupon), {
        ...options,
        ...(await formContext(sessionTenant(request.session))),
      }),
    });

  app.get(COUPONS, PAGE, async (request, reply) => sendList(request, reply, { values: EMPTY_COUPON }));

  app.post(COUPONS, PAGE, async (request, reply) => {
    const values = postedValues(request);
    try {
      await createCoupon(deps, sessionTenant(request.session), { ...couponInput(values), is_active: true });
    } catch (error) {
      return sendList(request, reply, { values, error: formErrorOf(error) });
    }
    return reply.redirect(`${COUPONS}?added=1`, 303);
  });

  const couponOf = (request: RecordRequest) => getCoupon(deps, sessionTenant(request.session), request.params.id);

  app.get<{ Params: { id: string } }>(`${COUPONS}/:id`, COUPON_PAGE, async (request, reply) =>
    sendEdit(request, reply, await couponOf(request), { saved: queryValue(request, 'saved') === '1' }),
  );

  app.post<{ Params: { id: string } }>(`${COUPONS}/:id`, COUPON_PAGE, async (request, reply) => {
    const coupon = await couponOf(request);
    const values = postedValues(request);
    try {
      await updateCoupon(deps, sessionTenant(request.session), coupon.id, {
        ...couponInput(values),
        is_active: values.is_active,
      });
    } catch (error) {
      return sendEdit(request, reply, coupon, { values, error: formErrorOf(error) });
    }
    return reply.redirect(`${COUPONS}/${coupon.id}?saved=1`, 303);
  });

  app.get<{ Params: { id: string } }>(`${COUPONS}/:id/archive`, COUPON_PAGE, async (request, reply) => {
    const coupon = await couponOf(request);
    return sendShell(request, reply, {
      title: `Archive ${coupon.code}`,
      content: html`${pageHeader({ title: 'Coupons', breadcrumbs: [{ href: COUPONS, label: 'Coupons' }] })}
${confirmForm(request.session, archiveConfirmation(coupon))}`,
    });
  });

  app.post<{ Params: { id: string } }>(`${COUPONS}/:id/archive`, COUPON_PAGE, async (request, reply) => {
    await deleteCoupon(deps, sessionTenant(request.session), request.params.id);
    return reply.redirect(`${COUPONS}?archived=1`, 303);
  });
}
