// A kept page (JsonPage: its items' JSON joined) must be what ListOf's serialiser writes for the
// same items: the properties, their order and the pagination's.
import fc from 'fast-check';
import fastJson from 'fast-json-stringify';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { apiJson } from './api-shape.ts';
import { JsonPage, jsonPageText, ListOf } from './pagination.ts';

const Item = Type.Object({
  id: Type.String(),
  total: Type.Integer(),
  notes: Type.Union([Type.String(), Type.Null()]),
  tags: Type.Array(Type.String()),
});

describe('jsonPageText', () => {
  it("writes a page of items' JSON as ListOf's serialiser writes the items", () => {
    const list = fastJson(ListOf(Item) as never);
    const item = apiJson<unknown>(Item);
    const items = fc.array(
      fc.record({
        id: fc.string(),
        total: fc.integer(),
        notes: fc.option(fc.string(), { nil: null }),
        tags: fc.array(fc.string(), { maxLength: 3 }),
      }),
      { maxLength: 20 },
    );
    const pagination = fc.record({
      page: fc.nat(),
      per_page: fc.integer({ min: 1, max: 100 }),
      total: fc.nat(),
      total_pages: fc.nat(),
    });
    fc.assert(
      fc.property(items, pagination, (data, page) => {
        const kept = jsonPageText(
          new JsonPage(
            data.map((one) => item(one)),
            page,
          ),
        );
        expect(kept).toBe(list({ data, pagination: page }));
        expect(JSON.parse(kept)).toEqual({ data, pagination: page });
      }),
      { numRuns: 300 },
    );
  });
});
