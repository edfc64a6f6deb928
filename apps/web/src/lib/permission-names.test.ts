import { describe, expect, it } from 'vitest';
import type { useCurrentUser } from './session.ts';

type Held = ReturnType<typeof useCurrentUser>['permissions'];

describe('permission names in the console', () => {
  it('are the contract’s: a misspelt one fails the typecheck', () => {
    const held: Held = new Set(['site-settings.read'] as const);
    // @ts-expect-error 'site-settings.wirte' is not a permission of the contract's matrix
    expect(held.has('site-settings.wirte')).toBe(false);
    expect(held.has('site-settings.read')).toBe(true);
  });
});
