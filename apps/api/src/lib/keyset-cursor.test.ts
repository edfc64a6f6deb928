import { describe, expect, it } from 'vitest';
import { AppError } from './app-error.ts';
import {
  ANY_TEXT,
  BOOLEAN,
  count,
  DIGITS,
  decodeCursor,
  encodeCursor,
  literal,
  oneOf,
  PG_TIMESTAMP,
  text,
} from './keyset-cursor.ts';

const refusal = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    return e instanceof AppError ? { kind: e.errorName, message: e.description, fields: e.fieldErrors } : e;
  }
  return 'accepted';
};

describe('the one cursor codec', () => {
  it('gives back every part as it was, whatever the text holds', () => {
    const rules = [literal('r2'), ANY_TEXT, count(1000), BOOLEAN, oneOf([0, 1, 2])] as const;
    const parts = ['r2', 'Smith | "Jr" [β]', 1000, false, 2] as const;
    expect(decodeCursor(encodeCursor(parts), rules)).toEqual(parts);
  });

  it('still reads a cursor of text parts joined by |, as they were given before', () => {
    const before = Buffer.from('2026-11-28 10:00:00.123456+00|42').toString('base64url');
    expect(decodeCursor(before, [PG_TIMESTAMP, DIGITS])).toEqual(['2026-11-28 10:00:00.123456+00', '42']);
  });

  it('refuses a cursor whose parts break their rules, with a 400 naming cursor', () => {
    const rules = [text(/^a$/), DIGITS] as const;
    const bad = [
      'garbage!',
      encodeCursor(['a']),
      encodeCursor(['a', '1', '2']),
      encodeCursor(['b', '1']),
      encodeCursor(['a', 1]),
      encodeCursor(['a', '99999999999999999999']),
      Buffer.from('[not json').toString('base64url'),
      Buffer.from('{"0":"a","1":"1"}').toString('base64url'),
    ];
    for (const cursor of bad) {
      expect(refusal(() => decodeCursor(cursor, rules))).toEqual({
        kind: 'validation',
        message: 'cursor is not a cursor of this list.',
        fields: [{ Field: 'cursor', Message: 'cursor is not a cursor of this list.' }],
      });
    }
  });

  it("answers a list's own words when it has them", () => {
    expect(refusal(() => decodeCursor('x', [BOOLEAN], 'Not this search.'))).toMatchObject({
      message: 'Not this search.',
      fields: [{ Field: 'cursor', Message: 'Not this search.' }],
    });
  });

  it('takes a real instant only, and a count within its bound only', () => {
    expect(PG_TIMESTAMP.test('2026-02-30 10:00:00+00')).toBe(false);
    expect(PG_TIMESTAMP.test('2026-02-28 10:00:00+00')).toBe(true);
    expect(count(5).test(6)).toBe(false);
    expect(count(5).test(1.5)).toBe(false);
  });
});
