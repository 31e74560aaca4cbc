// Settings > Services: industries and, per industry, its categories, products and extras: add,
// edit, reorder (up/down) and archive after a confirmation step. Every action is the catalog's
// own service function, as the /v1/services routes use, so the rules (slugs, the room products,
// per_unit extras, money) are judged in one place and their errors shown next to the field.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../core/deps.ts';
import { AppError, invalidParameter, notFound } from '../../core/errors.ts';
import type { Tenant } from '../../core/tenant.ts';
import { fieldError, formField, queryValue } from '../../web/forms.ts';
import * as catalog from '../catalog/index.ts';
import { sessionTenant } from '../sessions/index.ts';
import { PAGE, recordRoute } from './pages.ts';
import { type FailedForm, industryPageView, itemPageView, SERVICES, servicesView } from './services.view.ts';
import { categoryForm, extraForm, type FormValues, productForm } from './services-forms.view.ts';
import { confirmationOn, confirmForm, sendShell } from './shell.ts';

const INDUSTRY_PAGE = recordRoute('There is no such industry in this environment.');
const ITEM_PAGE = recordRoute('There is no such category, product or extra in this environment.');

type SlugRequest = FastifyRequest<{ Params: { slug: string } }>;
type ItemRequest = FastifyRequest<{ Params: { slug: string; kind: string; id: string } }>;

/** What a form refused: a 400 of the service's, or a slug or item that is taken or in use. */
function refusal(error: unknown) {
  if (error instanceof AppError && ['resource_already_exists', 'resource_in_use'].includes(error.code)) {
    return { param: error.param, message: error.message };
  }
  return fieldError(error);
}

/** Dollars typed into a form ("1,234.5", "$45") as cents; anything else is refused on `param`. */
function cents(text: string, param: string): number {
  const plain = text.replace(/[$,\s]/g, '');
  if (!/^\d{1,9}(\.\d{1,2})?$/.test(plain)) throw invalidParameter(param, 'Enter an amount in dollars, like 45.00.');
  return Math.round(Number(plain) * 100);
}

/** Whole minutes typed into a form; left as typed when not a number, so the service names the problem. */
function wholeNumber(text: string): number | string {
  return /^\s*\d{1,6}\s*$/.test(text) ? Number(text) : text;
}

const optional = (value: string) => (value.trim() ? value.trim() : undefined);

function posted(request: FastifyRequest, names: string[]): FormValues {
  return Object.fromEntries(names.map((name) => [name, formField(request, name).slice(0, 2000)]));
}

const ROOMS = ['visit', 'bedroom', 'bathroom'] as const;
const INDUSTRY_FIELDS = ['name', 'slug', 'configuration_type', 'icon', 'description'].concat(
  ROOMS.flatMap((room) => [`${room}_name`, `${room}_price`, `${room}_minutes`]),
);
const FIELDS = {
  categories: ['name', 'slug'],
  products: ['category_id', 'name', 'price', 'minutes', 'slug', 'description', 'in_catalog'],
  extras: ['name', 'price', 'price_type', 'unit_label', 'minutes', 'slug', 'description'],
} as const;
type Kind = keyof typeof FIELDS;

/** A form's values as the service's input (an edit sends every field; an add leaves blanks out). */
function itemInput(kind: Kind, v: FormValues, editing: boolean): Record<string, unknown> {
  const slug = editing ? v.slug?.trim() || undefined : optional(v.slug ?? '');
  if (kind === 'categories') return { name: v.name, slug };
  const shared = { name: v.name, slug, description: v.description ?? '', minutes: wholeNumber(v.minutes ?? '') };
  if (kind === 'products') {
    const price = cents(v.price ?? '', 'base_price');
    return { ...shared, category_id: v.category_id, base_price: price, in_catalog: v.in_catalog === 'yes' };
  }
  const unitLabel = v.unit_label?.trim() || null;
  return { ...shared, price: cents(v.price ?? '', 'price'), price_type: v.price_type, unit_label: unitLabel };
}

const KINDS = {
  categories: { get: catalog.getCategory, update: catalog.updateCategory, archive: catalog.deleteCategory },
  products: { get: catalog.getProduct, update: catalog.updateProduct, archive: catalog.deleteProduct },
  extras: { get: catalog.getExtra, update: catalog.updateExtra, archive: catalog.deleteExtra },
};
const CREATE = { categories: catalog.createCategory, products: catalog.createProduct, extras: catalog.createExtra };
const KIND_NAMES: Record<Kind, string> = { categories: 'category', products: 'product', extras: 'extra' };

function kindOf(request: ItemRequest): Kind {
  const kind = request.params.kind;
  if (!(kind in FIELDS)) throw notFound('page', kind);
  return kind as Kind;
}

export function servicePages(app: FastifyInstance, deps: Deps): void {
  const tenantOf = (request: FastifyRequest): Tenant => sessionTenant(request.session);

  const listPage = async (request: FastifyRequest, reply: FastifyReply, failed?: FailedForm) => {
    const { data } = await catalog.listIndustries(deps, tenantOf(request), { include_inactive: true });
    const content = servicesView(request.session, data, queryValue(request, 'done'), failed);
    return sendShell(request, reply, { title: 'Services', status: failed ? 400 : 200, content });
  };

  const industryPage = async (request: SlugRequest, reply: FastifyReply, failed?: FailedForm) => {
    const page = await catalog.industryMenu(deps, tenantOf(request), request.params.slug);
    const content = industryPageView(request.session, page, queryValue(request, 'done'), failed);
    return sendShell(request, reply, { title: page.industry.name, status: failed ? 400 : 200, content });
  };

  app.get(SERVICES, PAGE, async (request, reply) => listPage(request, reply));

  app.post(SERVICES, PAGE, async (request, reply) => {
    const values = posted(request, INDUSTRY_FIELDS);
    try {
      const roomBased = values.configuration_type === 'room_based';
      const roomProducts = (room: (typeof ROOMS)[number]) => ({
        name: values[`${room}_name`] ?? '',
        base_price: cents(values[`${room}_price`] ?? '', `room_products.${room}.base_price`),
        minutes: wholeNumber(values[`${room}_minutes`] ?? ''),
      });
      const created = await catalog.createIndustry(deps, tenantOf(request), {
        name: values.name,
        slug: optional(values.slug ?? ''),
        configuration_type: values.configuration_type,
        icon: values.icon?.trim() ?? '',
        description: values.description ?? '',
        room_products: roomBased
          ? { visit: roomProducts('visit'), bedroom: roomProducts('bedroom'), bathroom: roomProducts('bathroom') }
          : undefined,
      });
      return reply.redirect(`${SERVICES}/${created.slug}?done=added`, 303);
    } catch (error) {
      return listPage(request, reply, { form: 'industry', values, error: refusal(error) });
    }
  });

  app.get<{ Params: { slug: string } }>(`${SERVICES}/:slug`, INDUSTRY_PAGE, async (request, reply) =>
    industryPage(request, reply),
  );

  app.post<{ Params: { slug: string } }>(`${SERVICES}/:slug`, INDUSTRY_PAGE, async (request, reply) => {
    const values = posted(request, ['name', 'icon', 'description', 'is_active']);
    try {
      await catalog.updateIndustry(deps, tenantOf(request), request.params.slug, {
        name: values.name,
        icon: values.icon?.trim() ?? '',
        description: values.description ?? '',
        is_active: values.is_active === 'yes',
      });
      return reply.redirect(`${SERVICES}/${request.params.slug}?done=saved`, 303);
    } catch (error) {
      return industryPage(request, reply, { form: 'details', values, error: refusal(error) });
    }
  });

  app.post<{ Params: { slug: string } }>(`${SERVICES}/:slug/move`, INDUSTRY_PAGE, async (request, reply) => {
    const tenant = tenantOf(request);
    const { data } = await catalog.listIndustries(deps, tenant, { include_inactive: true });
    const index = data.findIndex((industry) => industry.slug === request.params.slug);
    if (index === -1) throw notFound('industry', request.params.slug);
    const position = Math.max(0, index + (formField(request, 'direction') === 'up' ? -1 : 1));
    await catalog.updateIndustry(deps, tenant, request.params.slug, { position });
    return reply.redirect(`${SERVICES}?done=moved`, 303);
  });

  for (const kind of Object.keys(FIELDS) as Kind[]) {
    app.post<{ Params: { slug: string } }>(`${SERVICES}/:slug/${kind}`, INDUSTRY_PAGE, async (request, reply) => {
      const values = posted(request, [...FIELDS[kind]]);
      try {
        await CREATE[kind](deps, tenantOf(request), request.params.slug, itemInput(kind, values, false));
        return reply.redirect(`${SERVICES}/${request.params.slug}?done=added`, 303);
      } catch (error) {
        const form = KIND_NAMES[kind] as FailedForm['form'];
        return industryPage(request, reply, { form, values, error: refusal(error) });
      }
    });
  }

  /** The edit page of an item, with what was typed and the service's error when refused. */
  const itemPage = async (request: ItemRequest, reply: FastifyReply, values?: FormValues, error?: unknown) => {
    const kind = kindOf(request);
    const tenant = tenantOf(request);
    const industry = await catalog.getIndustry(deps, tenant, request.params.slug);
    const item = (await KINDS[kind].get(deps, tenant, request.params.id)) as Record<string, unknown> & { name: string };
    const state = { values: values ?? stored(kind, item), error: error === undefined ? undefined : refusal(error) };
    const action = `${SERVICES}/${industry.slug}/${kind}/${request.params.id}`;
    const title = `Edit ${KIND_NAMES[kind]}: ${item.name}`;
    let form = categoryForm(request.session, action, state, title, 'Save');
    if (kind === 'products') {
      const { categories } = await catalog.industryMenu(deps, tenant, industry.slug);
      form = productForm(request.session, action, state, { title, button: 'Save', categories });
    }
    if (kind === 'extras') form = extraForm(request.session, action, state, title, 'Save');
    const status = error === undefined ? 200 : 400;
    return sendShell(request, reply, { title, status, content: itemPageView(industry, title, form) });
  };

  const ITEM = `${SERVICES}/:slug/:kind/:id`;
  app.get<{ Params: { slug: string; kind: string; id: string } }>(ITEM, ITEM_PAGE, async (request, reply) =>
    itemPage(request, reply),
  );

  app.post<{ Params: { slug: string; kind: string; id: string } }>(ITEM, ITEM_PAGE, async (request, reply) => {
    const kind = kindOf(request);
    const values = posted(request, [...FIELDS[kind]]);
    try {
      await KINDS[kind].update(deps, tenantOf(request), request.params.id, itemInput(kind, values, true));
      return reply.redirect(`${SERVICES}/${request.params.slug}?done=saved`, 303);
    } catch (error) {
      return itemPage(request, reply, values, error);
    }
  });

  app.post<{ Params: { slug: string; kind: string; id: string } }>(
    `${ITEM}/move`,
    ITEM_PAGE,
    async (request, reply) => {
      const kind = kindOf(request);
      const tenant = tenantOf(request);
      const item = await KINDS[kind].get(deps, tenant, request.params.id);
      const position = Math.max(0, item.position + (formField(request, 'direction') === 'up' ? -1 : 1));
      await KINDS[kind].update(deps, tenant, request.params.id, { position });
      return reply.redirect(`${SERVICES}/${request.params.slug}?done=moved`, 303);
    },
  );

  /** The confirmation step before archiving; `problem` is why the last try was refused. */
  const archivePage = async (request: ItemRequest, reply: FastifyReply, problem?: string) => {
    const kind = kindOf(request);
    const tenant = tenantOf(request);
    const industry = await catalog.getIndustry(deps, tenant, request.params.slug);
    const item = await KINDS[kind].get(deps, tenant, request.params.id);
    const back = `${SERVICES}/${industry.slug}`;
    const title = `Archive ${KIND_NAMES[kind]} ${item.name}?`;
    const warning = problem
      ? problem
      : `It disappears from lists, quotes and new bookings at once. Bookings already made with it keep their price.`;
    const confirm = confirmForm(
      request.session,
      confirmationOn(back, `${kind}/${item.id}/archive`, { title, warning, button: `Archive ${KIND_NAMES[kind]}` }),
    );
    return sendShell(request, reply, {
      title,
      status: problem ? 409 : 200,
      content: itemPageView(industry, title, confirm),
    });
  };

  app.get<{ Params: { slug: string; kind: string; id: string } }>(
    `${ITEM}/archive`,
    ITEM_PAGE,
    async (request, reply) => archivePage(request, reply),
  );

  app.post<{ Params: { slug: string; kind: string; id: string } }>(
    `${ITEM}/archive`,
    ITEM_PAGE,
    async (request, reply) => {
      const kind = kindOf(request);
      try {
        await KINDS[kind].archive(deps, tenantOf(request), request.params.id);
      } catch (error) {
        if (error instanceof AppError && error.code === 'resource_in_use')
          return archivePage(request, reply, error.message);
        throw error;
      }
      return reply.redirect(`${SERVICES}/${request.params.slug}?done=archived`, 303);
    },
  );
}

/** An item as its edit form's values. */
function stored(kind: Kind, item: Record<string, unknown>): FormValues {
  const text = (value: unknown) => (value === null || value === undefined ? '' : String(value));
  const dollars = (value: unknown) => (Number(value) / 100).toFixed(2);
  const values: FormValues = { name: text(item.name), slug: text(item.slug) };
  if (kind === 'categories') return values;
  Object.assign(values, { description: text(item.description), minutes: text(item.minutes) });
  if (kind === 'products') {
    return {
      ...values,
      category_id: text(item.category_id),
      price: dollars(item.base_price),
      in_catalog: item.in_catalog ? 'yes' : '',
    };
  }
  return {
    ...values,
    price: dollars(item.price),
    price_type: text(item.price_type),
    unit_label: text(item.unit_label),
  };
}
