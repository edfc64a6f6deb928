import { describe, expect, it } from 'vitest';
import { parseSort, REQUEST_SORT_KEYS, sortParam, sortQueryField } from './list-sort.ts';

describe('list sort', () => {
  const field = sortQueryField(REQUEST_SORT_KEYS);

  it('reads a key ascending, a key with "-" descending, and nothing as the list’s own order', () => {
    expect(field.parse('priority')).toEqual({ key: 'priority', descending: false });
    expect(field.parse('-modified')).toEqual({ key: 'modified', descending: true });
    expect(field.parse(undefined)).toBeUndefined();
    expect(field.parse('')).toBeUndefined();
  });

  it('refuses a key the list does not have, naming the keys it has', () => {
    const r = field.safeParse('--id');
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.message).toBe(
      'sort must be one of id, -id, app, -app, priority, -priority, status, -status, modified, -modified.',
    );
    expect(field.safeParse('name').success).toBe(false);
    expect(field.safeParse('x'.repeat(41)).success).toBe(false);
  });

  it('writes back what it reads', () => {
    for (const v of ['id', '-app']) expect(sortParam(parseSort(REQUEST_SORT_KEYS, v)!)).toBe(v);
  });
});
