import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nestedDeeperThan } from './json-body.ts';

describe('JSON depth before parsing', () => {
  it('counts arrays and objects inside each other, not brackets inside strings', () => {
    expect(nestedDeeperThan('[[1]]', 2)).toBe(false);
    expect(nestedDeeperThan('[[[1]]]', 2)).toBe(true);
    expect(nestedDeeperThan('{"a":{"b":[]}}', 3)).toBe(false);
    expect(nestedDeeperThan('{"a":{"b":[{}]}}', 3)).toBe(true);
    // siblings do not add up
    expect(nestedDeeperThan('[[1],[2],[3],{"a":1}]', 2)).toBe(false);
    expect(nestedDeeperThan('{"a":"[[[[{{{{"}', 1)).toBe(false);
    // an escaped quote does not end the string; an escaped backslash does not escape the quote
    expect(nestedDeeperThan('["\\"[[[[", 1]', 1)).toBe(false);
    expect(nestedDeeperThan('["\\\\", [[1]]]', 2)).toBe(true);
  });

  it('agrees with the parsed value on random JSON', () => {
    const depth = (value: unknown): number =>
      value !== null && typeof value === 'object' ? 1 + Math.max(0, ...Object.values(value).map(depth)) : 0;
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 12 }), (value) => {
        const text = JSON.stringify(value);
        const actual = depth(JSON.parse(text));
        expect(nestedDeeperThan(text, actual)).toBe(false);
        if (actual > 0) expect(nestedDeeperThan(text, actual - 1)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('skips strings full of quotes, backslashes and brackets', () => {
    const tricky = fc.string({ unit: fc.constantFrom('"', '\\', '[', ']', '{', '}', 'a') });
    fc.assert(
      fc.property(fc.array(tricky, { maxLength: 5 }), fc.dictionary(tricky, tricky), (list, object) => {
        expect(nestedDeeperThan(JSON.stringify(list), 1)).toBe(false);
        expect(nestedDeeperThan(JSON.stringify([object]), 2)).toBe(false);
        expect(nestedDeeperThan(JSON.stringify([[object]]), 2)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('reads 20,000 levels without recursion', () => {
    expect(nestedDeeperThan('['.repeat(20_000) + ']'.repeat(20_000), 32)).toBe(true);
  });
});
