import { describe, expect, it } from 'vitest';
import { canOpenProfile } from './profile-access.ts';

const ROLES = ['SuperAdmin', 'Admin', 'Support', 'Auditor'] as const;
/** Every subset of the four roles, the empty set included: 16 role sets. */
const ROLE_SETS: string[][] = Array.from({ length: 1 << ROLES.length }, (_, mask) =>
  ROLES.filter((_r, i) => mask & (1 << i)),
);

/** Spec section 6, sentence by sentence, as a table lookup rather than code paths. */
function specSays(viewer: string[], target: string[], own: boolean): boolean {
  if (own) return true; // "anyone may open their own"
  const shared = viewer.some((r) => target.includes(r));
  const vSA = viewer.includes('SuperAdmin');
  const vAdmin = viewer.includes('Admin');
  const tSA = target.includes('SuperAdmin');
  const tAdmin = target.includes('Admin');
  if (shared) {
    // "SuperAdmin may open the target unless it is SuperAdmin; Admin unless the target is Admin or SuperAdmin; others not"
    if (vSA) return !tSA;
    if (vAdmin) return !(tAdmin || tSA);
    return false;
  }
  // "SuperAdmin may open any; Admin any that is not SuperAdmin"
  if (vSA) return true;
  if (vAdmin) return !tSA;
  return false;
}

describe('canOpenProfile over every pair of role sets', () => {
  const cases = ROLE_SETS.flatMap((v) => ROLE_SETS.map((t) => [v, t] as const));
  it('covers 256 pairs', () => expect(cases).toHaveLength(256));

  it.each(cases)('viewer %j, target %j', (viewer, target) => {
    expect(canOpenProfile({ uid: 'v', roles: viewer }, { uid: 't', roles: target })).toBe(
      specSays(viewer, target, false),
    );
    // the same user: always their own profile
    expect(canOpenProfile({ uid: 'v', roles: viewer }, { uid: 'v', roles: target })).toBe(true);
  });
});

describe('canOpenProfile, the spec examples', () => {
  const can = (v: string[], t: string[]) => canOpenProfile({ uid: 'a', roles: v }, { uid: 'b', roles: t });
  it('a SuperAdmin opens an Admin but not another SuperAdmin', () => {
    expect(can(['SuperAdmin'], ['Admin'])).toBe(true);
    expect(can(['SuperAdmin'], ['SuperAdmin'])).toBe(false);
    expect(can(['SuperAdmin', 'Support'], ['Support'])).toBe(true);
  });
  it('an Admin opens a Support user, not an Admin or a SuperAdmin', () => {
    expect(can(['Admin'], ['Support'])).toBe(true);
    expect(can(['Admin'], ['Admin'])).toBe(false);
    expect(can(['Admin'], ['SuperAdmin'])).toBe(false);
    expect(can(['Admin', 'Support'], ['Support', 'Admin'])).toBe(false);
  });
  it('other roles open only their own', () => {
    expect(can(['Support'], ['Support'])).toBe(false);
    expect(can(['Support'], ['Auditor'])).toBe(false);
    expect(can([], [])).toBe(false);
  });
});
