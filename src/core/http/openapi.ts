// The OpenAPI 3.1 document is generated from the same route schemas that validate requests
// and serialise responses, served at /v1/openapi.json and rendered by Swagger UI at /docs.
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { ErrorResponse } from './error-handler.ts';
import { Metadata } from './metadata.ts';

const DESCRIPTION = `
Fieldhand runs a field-service business: customers, service catalog, availability, prices,
bookings, invoices and payments, with signed webhooks for every change.

**Authentication.** Send \`Authorization: Bearer <token>\`, where the token is an API key
(\`svc_test_sk_…\` or \`svc_live_sk_…\`, full access to one environment of one account) or an
OAuth 2.0 access token (\`svc_at_…\`, limited to its scopes). Each operation lists the scope it
needs under *x-required-scope*.

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

export async function registerOpenApi(app: FastifyInstance, baseUrl: string): Promise<void> {
  app.addSchema(ErrorResponse);
  app.addSchema(Metadata);
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Fieldhand API', version: '1.0.0', description: DESCRIPTION },
      servers: [{ url: baseUrl }],
      components: {
        securitySchemes: {
          bearer: {
            type: 'http',
            scheme: 'bearer',
            description: 'An API key (svc_test_sk_…, svc_live_sk_…) or an OAuth access token (svc_at_…).',
          },
        },
      },
      security: [{ bearer: [] }],
      // the order integrators meet the resources in
      tags: [
        { name: 'Customers' },
        { name: 'Services', description: 'Catalog, availability and pricing.' },
        { name: 'Zones', description: 'Where the business works: ZIPs, hours, time zone, prices there.' },
        { name: 'Staff', description: 'Crew members, their zones, industries, hours and time off.' },
        { name: 'Bookings' },
        { name: 'Invoices' },
        { name: 'Payment methods' },
        { name: 'Webhooks' },
        { name: 'Events', description: 'What webhooks carried, kept 30 days.' },
        { name: 'OAuth', description: 'The authorization server (flat RFC 6749 errors).' },
        { name: 'Operations' },
      ],
    },
    hideUntagged: true,
    transform: ({ schema, url, route }) => {
      const scope = route.config?.scope;
      const transformed = { ...(schema as Record<string, unknown>) };
      if (scope) transformed['x-required-scope'] = scope;
      // every operation that takes a body refuses other media types (json-body.ts)
      if (transformed.body && transformed.response) {
        transformed.response = { ...(transformed.response as object), 415: Type.Ref('Error') };
      }
      return { schema: transformed as typeof schema, url };
    },
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
