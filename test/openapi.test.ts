// The OpenAPI document as the server serves it: complete enough to generate a client from
// (CONTRACT §13), and every example in it valid against its own schema.
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { beforeAll, describe, expect, it } from 'vitest';
import { isCalendarDate, isTimestamp, isTimestampOrDate } from '../src/core/dates.ts';
import { ERRORS } from '../src/core/errors.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { apiClient } from './helpers/http.ts';

type Json = Record<string, any>;
let t: TestApp;
let doc: Json;

beforeAll(async () => {
  t = await startTestApp({ workers: false });
  doc = (await apiClient(t.url).get('/v1/openapi.json')).body;
  return t.close;
});

const METHODS = new Set(['get', 'post', 'put', 'patch', 'delete']);
function operations(): [string, string, Json][] {
  return Object.entries(doc.paths as Record<string, Json>).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.has(method))
      .map(([method, operation]): [string, string, Json] => [method, path, operation]),
  );
}

const pointer = (...parts: string[]) => parts.map((part) => part.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

/** Every example in the document with the JSON pointer of the schema it illustrates. */
function examples(): { at: string; schema: string; example: unknown }[] {
  const found: { at: string; schema: string; example: unknown }[] = [];
  for (const [name, schema] of Object.entries(doc.components.schemas as Record<string, Json>)) {
    for (const [i, example] of (schema.examples ?? []).entries()) {
      found.push({ at: `${name} examples[${i}]`, schema: `/components/schemas/${pointer(name)}`, example });
    }
  }
  for (const [method, path, operation] of operations()) {
    const media: [string, string, Json][] = Object.entries(operation.requestBody?.content ?? {}).map(([type, m]) => [
      `/paths/${pointer(path, method, 'requestBody', 'content', type)}`,
      'request',
      m as Json,
    ]);
    for (const [status, response] of Object.entries(operation.responses as Record<string, Json>)) {
      for (const [type, m] of Object.entries(response.content ?? {})) {
        media.push([`/paths/${pointer(path, method, 'responses', status, 'content', type)}`, status, m as Json]);
      }
    }
    for (const [at, what, m] of media) {
      if ('example' in m)
        found.push({ at: `${operation.operationId} ${what}`, schema: `${at}/schema`, example: m.example });
    }
  }
  return found;
}

describe('the OpenAPI document', () => {
  it('names every operation, summarises and describes it, and tags it with a described tag', () => {
    const described = new Map((doc.tags as Json[]).map((tag) => [tag.name, tag.description]));
    const ids = new Set<string>();
    for (const [method, path, operation] of operations()) {
      const where = `${method.toUpperCase()} ${path}`;
      expect(operation.operationId, where).toMatch(/^[a-z]+[A-Za-z]*$/);
      expect(ids.has(operation.operationId), `${where}: ${operation.operationId} twice`).toBe(false);
      ids.add(operation.operationId);
      expect(operation.summary, where).toBeTruthy();
      expect(operation.description, where).toBeTruthy();
      for (const tag of operation.tags) expect(described.get(tag), `tag ${tag}`).toBeTruthy();
      for (const [status, response] of Object.entries(operation.responses as Record<string, Json>)) {
        expect(response.description, `${where} ${status}`).not.toBe('Default Response');
      }
    }
    expect([...ids]).toEqual(expect.arrayContaining(['listCustomers', 'createBooking', 'cancelBooking']));
    expect([...ids]).toEqual(expect.arrayContaining(['refundInvoice', 'rotateWebhookSecret', 'retrieveSettings']));
  });

  it('names its components and narrows each error response to the codes it can answer', () => {
    const names = Object.keys(doc.components.schemas);
    expect(names).toEqual(expect.arrayContaining(['Customer', 'Booking', 'Invoice', 'Refund', 'PaymentMethod']));
    expect(names).toEqual(expect.arrayContaining(['Webhook', 'WebhookDelivery', 'Zone', 'Staff', 'Coupon']));
    expect(names).toEqual(expect.arrayContaining(['Settings', 'Error', 'Pagination']));
    expect(names.filter((name) => name.startsWith('def-'))).toEqual([]);
    for (const [method, path, operation] of operations()) {
      for (const [status, response] of Object.entries(operation.responses as Record<string, Json>)) {
        const schema = response.content?.['application/json']?.schema;
        if (Number(status) < 400 || !schema) continue;
        expect(schema.allOf[0], `${method} ${path} ${status}`).toEqual({ $ref: '#/components/schemas/Error' });
        const codes: (keyof typeof ERRORS)[] = schema.allOf[1].properties.error.properties.code.enum;
        expect(codes.length, `${method} ${path} ${status}`).toBeGreaterThan(0);
        // an unknown id in a body is a 400 resource_not_found, the only code answered with two statuses
        for (const code of codes) {
          if (code !== 'resource_not_found') expect(ERRORS[code].status, `${path} ${code}`).toBe(Number(status));
        }
      }
    }
    const pay = doc.paths['/v1/invoices/{id}/pay'].post.responses;
    expect(pay['402'].content['application/json'].schema.allOf[1].properties.error.properties.code.enum).toEqual([
      'card_declined',
      'insufficient_funds',
    ]);
  });

  it('declares the headers, the OAuth scopes, and what a client may leave out', () => {
    const create = doc.paths['/v1/customers'].post;
    expect(create.parameters).toContainEqual({ $ref: '#/components/parameters/IdempotencyKey' });
    expect(doc.components.parameters.IdempotencyKey).toMatchObject({ name: 'Idempotency-Key', in: 'header' });
    expect(Object.keys(create.responses['201'].headers)).toEqual(
      expect.arrayContaining(['Request-Id', 'X-RateLimit-Remaining', 'RateLimit', 'Idempotent-Replayed']),
    );
    expect(Object.keys(create.responses['429'].headers)).toContain('Retry-After');
    expect(create.security).toEqual([{ bearer: [] }, { oauth2: ['customers:write'] }]);
    const oauth = doc.components.securitySchemes.oauth2.flows.authorizationCode;
    expect(oauth.authorizationUrl).toMatch(/^https?:\/\/.+\/oauth\/authorize$/);
    expect(oauth.tokenUrl).toMatch(/\/oauth\/token$/);
    expect(Object.keys(oauth.scopes)).toContain('bookings:write');
    // an empty POST is {} for actions; a parameter with a default may be left out
    expect(doc.paths['/v1/bookings/{id}/start'].post.requestBody.required).toBe(false);
    expect(doc.paths['/v1/customers'].post.requestBody.required).toBe(true);
    const availability = doc.paths['/v1/services/availability'].get.parameters;
    expect(availability.find((p: Json) => p.name === 'duration').required).toBe(false);
    expect(availability.find((p: Json) => p.name === 'zip').required).toBe(true);
  });

  it('has an example for every request body and answer, each valid against its own schema', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(ajv);
    ajv.addFormat('date', isCalendarDate);
    ajv.addFormat('date-time', isTimestamp);
    ajv.addFormat('date-or-date-time', isTimestampOrDate);
    ajv.addSchema(doc, 'openapi');
    const all = examples();
    for (const [, , operation] of operations()) {
      const answers = Object.entries(operation.responses as Record<string, Json>).filter(([, r]) => r.content);
      const expected = answers.length + (operation.requestBody ? 1 : 0);
      expect(all.filter((e) => e.at.startsWith(`${operation.operationId} `)).length, operation.operationId).toBe(
        expected,
      );
    }
    const invalid = all.flatMap(({ at, schema, example }) => {
      const validate = ajv.getSchema(`openapi#${schema}`);
      if (!validate) return [`${at}: no schema at ${schema}`];
      return validate(example) ? [] : [`${at}: ${ajv.errorsText(validate.errors)}`];
    });
    expect(invalid).toEqual([]);
  });
});
