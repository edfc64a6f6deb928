import { AUDIT_ACTIONS } from '@sac/contract/audit';
import { describe, expect, it } from 'vitest';
import { auditActions } from '../../../i18n/en/audit-actions.ts';
import { ACTIONS_BY_AREA, areaOf } from './trail-actions.ts';

describe('the Action filter’s areas', () => {
  it('put every action of the trail in exactly one area, each area named in words', () => {
    expect(AUDIT_ACTIONS.filter((a) => areaOf(a) === undefined)).toEqual([]);
    expect(ACTIONS_BY_AREA.flatMap((g) => g.actions).sort()).toEqual([...AUDIT_ACTIONS].sort());
    for (const g of ACTIONS_BY_AREA) expect(auditActions[g.area], g.area).toBeTruthy();
  });
});
