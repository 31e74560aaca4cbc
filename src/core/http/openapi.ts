// The OpenAPI 3.1 document is generated from the same route schemas that validate requests
// and serialise responses, served at /v1/openapi.json and rendered by Swagger UI at /docs.
// What validation does not need (operation ids, the error codes an operation answers, headers,
// examples, response descriptions) is added to the document only, in `completeDocument`, so
// that documenting an operation better can never change how it answers.
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { ERRORS, type ErrorCode } from '../errors.ts';
import { ErrorResponse } from './error-handler.ts';
import { Metadata } from './metadata.ts';
import { Pagination } from './pagination.ts';

const DESCRIPTION = `
Fieldhand runs a field-service business: customers, service catalog, availability, prices,
bookings, invoices and payments, with signed webhooks for every change.

**Authentication.** Send \`Authorization: Bearer <token>\`, where the token is an API key
(\`svc_test_sk_…\` or \`svc_live_sk_…\`, full access to one environment of one account) or an
OAuth 2.0 access token (\`svc_at_…\`, limited to its scopes). Each operation lists the scope it
needs under *x-required-scope* and in its \`oauth2\` security requirement.

**Environments.** Test and live data are isolated: a test key never sees live data. An id from
another account or environment answers 404 \`resource_not_found\`, exactly as a missing id does.

**Errors.** Every error is \`{"error": {"type", "code", "message", "param"?}}\`. Unknown body
fields are refused (400 \`parameter_unknown\`); unknown query parameters are ignored. Bodies are
JSON (\`application/json\` or \`application/*+json\`; anything else is 415
\`unsupported_media_type\`) nested at most 32 levels deep. A path id holds only letters, digits and
\`_\` (anything else is 404 \`resource_not_found\`). Dates and timestamps must name a real day
between the years 1970 and 9999 (400 \`parameter_invalid\`).

**Lists.** \`page\` (1 to 1,000,000) and \`per_page\` (1-100, default 25) with a \`pagination\` object;
newest first with \`id\` as tie-break; \`fields=id,stats.total_spent\` returns only those paths;
\`ids=a,b\` fetches a known set.

**Idempotency.** Send \`Idempotency-Key\` (up to 255 characters) on any POST: the first response
is kept for 24 hours and replayed with \`Idempotent-Replayed: true\`; the same key with a different
request is 422 \`idempotency_key_reused\`, and while the first is still running 409
\`idempotency_key_in_use\`. Responses with status 5xx are not kept.

**Rate limits.** Per credential, 100 requests per 10 seconds by default; every request with valid
credentials counts, errors included. Every response to such a request (404s and other errors too)
carries \`X-RateLimit-Limit\`, \`X-RateLimit-Remaining\`, \`X-RateLimit-Reset\` (epoch
seconds) and the IETF \`RateLimit-Policy\`/\`RateLimit\` fields; a 429 adds \`Retry-After\`.
`.trim();

// the order integrators meet the resources in
const TAGS = [
  { name: 'Customers', description: 'The people you work for, their addresses, and their bookings and invoices.' },
  { name: 'Services', description: 'Catalog, availability and pricing.' },
  { name: 'Coupons', description: 'Discount codes a booking or a price calculation can name.' },
  { name: 'Settings', description: "The environment's business profile, currency, discounts and policies." },
  { name: 'Zones', description: 'Where the business works: ZIPs, hours, time zone, prices there.' },
  { name: 'Staff', description: 'Crew members, their zones, industries, hours and time off.' },
  { name: 'Bookings', description: 'Scheduled jobs: created, rescheduled, started, completed or cancelled.' },
  { name: 'Invoices', description: 'What a customer owes: drafts, finalized invoices, payments and refunds.' },
  { name: 'Payment methods', description: "A customer's saved cards." },
  { name: 'Webhooks', description: 'Signed HTTP notifications of every change, their deliveries and retries.' },
  { name: 'Events', description: 'Every change as an event: what webhooks carried, kept 30 days.' },
  { name: 'Operations', description: 'Liveness and readiness checks for load balancers and orchestrators.' },
];

/** Examples a module documents: one per component schema, and request bodies by operationId. */
export interface Examples {
  /** An instance of each named component schema (`Customer`), used wherever it is answered. */
  schemas?: Record<string, unknown>;
  /** A request body per operationId (`createCustomer`). */
  requests?: Record<string, unknown>;
  /** A success response per operationId, where the component's example does not fit. */
  responses?: Record<string, unknown>;
}

const examplesOf = new WeakMap<FastifyInstance, Required<Examples>>();

/** Adds a module's examples to the document (routes files call it next to their routes). */
export function documentExamples(app: FastifyInstance, examples: Examples): void {
  const all = examplesOf.get(app) ?? { schemas: {}, requests: {}, responses: {} };
  Object.assign(all.schemas, examples.schemas);
  Object.assign(all.requests, examples.requests);
  Object.assign(all.responses, examples.responses);
  examplesOf.set(app, all);
}

export interface OpenApiOptions {
  baseUrl: string;
  /** Where /oauth/authorize and /oauth/token are served. */
  authUrl: string;
  /** Each OAuth scope and what it allows. */
  scopes: Record<string, string>;
}

export async function registerOpenApi(app: FastifyInstance, options: OpenApiOptions): Promise<void> {
  app.addSchema(ErrorResponse);
  app.addSchema(Metadata);
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Fieldhand API',
        version: '1.0.0',
        description: DESCRIPTION,
        license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
      },
      servers: [{ url: options.baseUrl }],
      components: {
        securitySchemes: {
          bearer: {
            type: 'http',
            scheme: 'bearer',
            description: 'An API key (svc_test_sk_…, svc_live_sk_…) or an OAuth access token (svc_at_…).',
          },
          oauth2: {
            type: 'oauth2',
            description: 'An app acting for a business, limited to the scopes it was granted (PKCE required).',
            flows: {
              authorizationCode: {
                authorizationUrl: `${options.authUrl}/oauth/authorize`,
                tokenUrl: `${options.authUrl}/oauth/token`,
                refreshUrl: `${options.authUrl}/oauth/token`,
                scopes: options.scopes,
              },
            },
          },
        },
      },
      security: [{ bearer: [] }],
      tags: TAGS,
    },
    hideUntagged: true,
    // components are named by their $id (Customer, Booking …) rather than def-0 … def-N
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => (json.$id as string) || `def-${i}` },
    transform: ({ schema, url, route }) => {
      const transformed = { ...(schema as Record<string, unknown>) };
      const scope = route.config?.scope;
      if (scope) {
        transformed['x-required-scope'] = scope;
        transformed.security = [{ bearer: [] }, { oauth2: [scope] }];
      }
      // every operation that takes a body refuses other media types (json-body.ts) and bodies
      // over 1 MiB
      if (transformed.body && transformed.response) {
        transformed.response = { ...(transformed.response as object), 413: Type.Ref('Error'), 415: Type.Ref('Error') };
      }
      // a POST may be replayed or collide with its Idempotency-Key (idempotency.ts)
      if (route.method === 'POST' && scope && transformed.response) {
        transformed.response = { ...(transformed.response as object), 409: Type.Ref('Error'), 422: Type.Ref('Error') };
      }
      return { schema: transformed as typeof schema, url };
    },
    transformObject: (documentObject) =>
      completeDocument((documentObject as { openapiObject: Document }).openapiObject, examplesOf.get(app)) as never,
  });

  app.get('/v1/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  // Swagger UI's files are in the package and served from here, under a same-origin CSP: the
  // page works offline and sends nothing to another host (Scalar, before, loaded fonts from a
  // CDN, offered SaaS buttons and wanted Node 22). "Try it out" calls this server with the
  // bearer token given under Authorize.
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    staticCSP: true,
    uiConfig: { deepLinking: true, tryItOutEnabled: true, persistAuthorization: false, displayRequestDuration: true },
    // "Try it out" calls the server that served the page (BASE_URL may name another host, such
    // as the public address in front of a proxy); /v1/openapi.json keeps BASE_URL
    transformSpecification: (document) => ({ ...document, servers: [{ url: '/' }] }),
  });
}

// ---- the document's finishing: everything below changes the document only ----

type Json = Record<string, unknown>;
interface Media {
  schema?: Json;
  example?: unknown;
}
interface Response {
  description: string;
  headers?: Json;
  content?: Record<string, Media>;
}
interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: Json;
}
interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  parameters?: (Parameter | Json)[];
  requestBody?: { required: boolean; content: Record<string, Media> };
  responses: Record<string, Response>;
  security?: unknown[];
  'x-required-scope'?: string;
  'x-error-codes'?: ErrorCode[];
  'x-body-optional'?: boolean;
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Json>; headers?: Json; parameters?: Json };
}

const SCHEMAS = '#/components/schemas/';
const ref = (name: string) => ({ $ref: `${SCHEMAS}${name}` });
const header = (description: string, schema: Json) => ({ description, schema });

const HEADERS = {
  'Request-Id': header('Identifies the request; quote it when asking for support.', { type: 'string' }),
  'X-RateLimit-Limit': header('Requests allowed per window for this credential.', { type: 'integer' }),
  'X-RateLimit-Remaining': header('Requests left in the current window.', { type: 'integer' }),
  'X-RateLimit-Reset': header('When the window resets, in epoch seconds.', { type: 'integer' }),
  'RateLimit-Policy': header('The IETF rate-limit policy, e.g. `"default";q=100;w=10`.', { type: 'string' }),
  RateLimit: header('The IETF rate-limit state, e.g. `"default";r=99;t=10`.', { type: 'string' }),
  'Retry-After': header('Seconds to wait before retrying.', { type: 'integer' }),
  'Idempotent-Replayed': header('`true` when this is the stored response to an earlier request with the same key.', {
    type: 'string',
    enum: ['true'],
  }),
};
const headerRef = (name: keyof typeof HEADERS) => ({ $ref: `#/components/headers/${name}` });
const RATE_LIMITED = [
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'RateLimit-Policy',
  'RateLimit',
] as const;

const IDEMPOTENCY_KEY = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description: 'Makes a retry safe: the first response is kept for 24 hours and replayed for the same key and request.',
  schema: { type: 'string', minLength: 1, maxLength: 255 },
};

/** What each error status means, for its response's description. */
const ERROR_DESCRIPTIONS: Record<string, string> = {
  '400': 'The request is invalid: a parameter is missing, malformed or unknown.',
  '401': 'No credential, or one that is unknown, revoked or expired.',
  '402': 'The payment was refused.',
  '403': "The access token's scopes do not include the one this operation needs.",
  '404': 'No such resource in this account and environment.',
  '409': "The resource's state does not allow this, or the Idempotency-Key is in use.",
  '413': 'The request body is larger than 1 MiB.',
  '415': 'The request body is not JSON.',
  '422': 'The Idempotency-Key was used for a different request.',
  '429': 'Too many requests for this credential; retry after Retry-After seconds.',
  '503': 'The service is unavailable for a moment; retry after Retry-After seconds.',
};

const EXAMPLE_MESSAGES: Partial<Record<ErrorCode, [string, string?]>> = {
  missing_required_field: ["'email' is required.", 'email'],
  parameter_invalid: ["'per_page' must be at most 100.", 'per_page'],
  parameter_unknown: ["Unknown parameter 'colour'.", 'colour'],
  invalid_json: ['The request body is not valid JSON.'],
  authentication_required: ['This request needs an API key or access token.'],
  insufficient_scope: ['This operation needs the scope customers:write.'],
  resource_not_found: ["No such customer: 'cus_2x8Yh1qPz4Lm'"],
  request_too_large: ['The request body is larger than 1 MiB.'],
  unsupported_media_type: ['Send the request body as application/json.'],
  idempotency_key_reused: ['This Idempotency-Key was used with a different request.'],
  rate_limit_exceeded: ['Too many requests; retry after 3 seconds.'],
  invalid_credentials: [
    'This API key has been revoked: create a new key (Settings > Integrations > API Keys) and use that.',
  ],
  token_expired: ['The access token has expired: use the refresh token at POST /oauth/token to get a new one.'],
  card_declined: ['The card was declined.', 'payment_method_id'],
  insufficient_funds: ['The card has insufficient funds.', 'payment_method_id'],
  invalid_coupon: ["The coupon 'SPRING15' has expired.", 'coupon_code'],
  refund_exceeds_amount_paid: ['The refund is larger than what is left of the amount paid.', 'amount'],
  processor_not_configured: ['No card processor is configured for this environment.'],
  invalid_state_transition: ['A completed booking cannot be cancelled.'],
  slot_unavailable: [
    "10:15 America/New_York is not a slot start: starts fall on Manhattan's 60-minute grid from 08:00 (the nearest are 10:00 and 11:00), so pick one of those.",
    'scheduled_at',
  ],
  resource_already_exists: ["A customer with the e-mail 'maria.garcia@example.com' already exists.", 'email'],
  resource_in_use: ['The zone still has bookings that are not over (bk_5gXnMzvV262bIZBCrNN6xoZJ).'],
  customer_deactivated: ['The customer is deactivated.', 'customer_id'],
  address_required: ['The address is the last one of a customer with open bookings.'],
  invoice_already_paid: ['The invoice is already paid.'],
  invoice_not_paid: ['The invoice has no payment to refund.'],
  idempotency_key_in_use: ['A request with this Idempotency-Key is still running; retry in a moment.'],
};

/** The codes an operation can answer with `status`: what every such operation can, and its own. */
function codesFor(status: string, operation: Operation, method: string): ErrorCode[] {
  const own = (operation['x-error-codes'] ?? []).filter((code) => String(ERRORS[code].status) === status);
  const hasBody = Boolean(operation.requestBody);
  const idempotent = method === 'post' && Boolean(operation['x-required-scope']);
  const common: Partial<Record<string, ErrorCode[]>> = {
    '400': [
      'parameter_invalid',
      'missing_required_field',
      // an unknown id in the body is a 400 resource_not_found (param set), not a 404
      ...(hasBody ? (['parameter_unknown', 'invalid_json', 'resource_not_found'] as const) : []),
    ],
    '401': ['authentication_required', 'invalid_credentials', 'token_expired'],
    '403': ['insufficient_scope'],
    '404': ['resource_not_found'],
    '409': idempotent ? ['idempotency_key_in_use'] : [],
    '413': ['request_too_large'],
    '415': ['unsupported_media_type'],
    '422': ['idempotency_key_reused'],
    '429': ['rate_limit_exceeded'],
  };
  // a business refusal first: the response's example shows it
  const codes =
    status === '409' || status === '402' ? [...own, ...(common[status] ?? [])] : [...(common[status] ?? []), ...own];
  // an operation that names none of its own for a status of business refusals may answer any
  if (own.length === 0 && (status === '409' || status === '402')) {
    for (const [code, { status: its }] of Object.entries(ERRORS)) {
      if (String(its) === status && !code.startsWith('idempotency_')) codes.push(code as ErrorCode);
    }
  }
  return [...new Set(codes)];
}

/**
 * The Error schema with `code` narrowed to `codes`, whole (so that an example meets no field it
 * does not know) but without the descriptions, which the `Error` it is combined with carries.
 */
function narrowed(error: Json | undefined, codes: ErrorCode[]): Json {
  const copy = JSON.parse(JSON.stringify(error ?? {}, (key, value) => (key === 'description' ? undefined : value)));
  delete copy.title;
  delete copy.$id;
  delete copy.examples;
  copy.properties.error.properties.code = { ...copy.properties.error.properties.code, enum: codes };
  return copy;
}

function errorExample(code: ErrorCode) {
  const [message, param] = EXAMPLE_MESSAGES[code] ?? [`The request was refused (${code}).`];
  return { error: { type: ERRORS[code].type, code, message, ...(param ? { param } : {}) } };
}

function successDescription(status: string, schema: Json | undefined, operation: Operation): string {
  if (status === '204') return 'Done; there is no body.';
  const name = typeof schema?.$ref === 'string' ? schema.$ref.slice(SCHEMAS.length) : undefined;
  const what = name ? `The ${name.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase()}` : 'The result';
  if (schema?.properties && (schema.properties as Json).pagination) return 'A page of the list.';
  if (status === '201') return `Created. ${what}.`;
  if (status === '202') return `Accepted: the work is queued. ${what}.`;
  return operation.summary?.startsWith('List') ? `${what} list.` : `${what}.`;
}

/** An example for `schema` from the components' examples: a $ref, a list of them, or none. */
function exampleFor(schema: Json | undefined, examples: Record<string, unknown>): unknown {
  if (!schema) return undefined;
  if (typeof schema.$ref === 'string') return examples[schema.$ref.slice(SCHEMAS.length)];
  const properties = schema.properties as Record<string, Json> | undefined;
  if (properties?.data && properties.pagination) {
    const item = exampleFor(properties.data.items as Json, examples);
    return item === undefined ? undefined : { data: [item], pagination: examples.Pagination };
  }
  return undefined;
}

/** Names the schema every list shares, where fastify-swagger inlined it. */
function namePagination(schema: Json | undefined): void {
  const properties = schema?.properties as Record<string, Json> | undefined;
  if (properties?.pagination && properties.data) properties.pagination = ref('Pagination');
}

/** A request's defaults fill in what is left out, so a part with a default is not required. */
function withoutDefaultsRequired(schema: Json | undefined): void {
  if (!schema || !Array.isArray(schema.required) || !schema.properties) return;
  const properties = schema.properties as Record<string, Json>;
  schema.required = (schema.required as string[]).filter((name) => properties[name]?.default === undefined);
  if ((schema.required as string[]).length === 0) delete schema.required;
}

function completeDocument(document: Document, examples: Required<Examples> | undefined): Document {
  const schemaExamples: Record<string, unknown> = {
    Pagination: { page: 1, per_page: 25, total: 1, total_pages: 1 },
    ...examples?.schemas,
  };
  document.components.schemas.Pagination = { ...Pagination, title: 'Pagination' };
  for (const [name, schema] of Object.entries(document.components.schemas)) {
    if (schemaExamples[name] !== undefined) schema.examples = [schemaExamples[name]];
  }
  document.components.headers = HEADERS;
  document.components.parameters = { IdempotencyKey: IDEMPOTENCY_KEY };

  for (const methods of Object.values(document.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      const authenticated = Boolean(operation['x-required-scope']);
      for (const parameter of operation.parameters ?? []) {
        const { schema } = parameter as Parameter;
        if (schema?.default !== undefined) (parameter as Parameter).required = false;
      }
      if (method === 'post' && authenticated) {
        operation.parameters = [...(operation.parameters ?? []), { $ref: '#/components/parameters/IdempotencyKey' }];
      }
      if (operation.requestBody) {
        if (operation['x-body-optional']) operation.requestBody.required = false;
        for (const media of Object.values(operation.requestBody.content)) {
          withoutDefaultsRequired(media.schema);
          const example = operation.operationId ? examples?.requests[operation.operationId] : undefined;
          if (example !== undefined) media.example = example;
        }
      }
      for (const [status, response] of Object.entries(operation.responses)) {
        const error = Number(status) >= 400;
        const headers: Json = { 'Request-Id': headerRef('Request-Id') };
        if (authenticated) for (const name of RATE_LIMITED) headers[name] = headerRef(name);
        if (status === '429' || status === '503') headers['Retry-After'] = headerRef('Retry-After');
        if (!error && method === 'post' && authenticated)
          headers['Idempotent-Replayed'] = headerRef('Idempotent-Replayed');
        response.headers = headers;
        for (const media of Object.values(response.content ?? {})) {
          if (error) {
            const codes = codesFor(status, operation, method);
            media.schema = { allOf: [ref('Error'), narrowed(document.components.schemas.Error, codes)] };
            media.example = errorExample(codes[0] ?? 'parameter_invalid');
          } else {
            namePagination(media.schema);
            const own = operation.operationId ? examples?.responses[operation.operationId] : undefined;
            const example = own ?? exampleFor(media.schema, schemaExamples);
            if (example !== undefined) media.example = example;
          }
        }
        if (response.description === 'Default Response') {
          response.description = error
            ? (ERROR_DESCRIPTIONS[status] ?? 'The request was refused.')
            : successDescription(status, response.content?.['application/json']?.schema, operation);
        }
      }
      // even a health check can be sent a request HTTP cannot parse; Fastify answers it before routing
      if (!Object.keys(operation.responses).some((status) => status.startsWith('4'))) {
        operation.responses['400'] = {
          description:
            'The request is malformed HTTP (a bad header line): Fastify answers it before routing, not in the API error shape.',
        };
      }
      delete operation['x-error-codes'];
      delete operation['x-body-optional'];
    }
  }
  return document;
}
