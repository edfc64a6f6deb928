import { AUDIT_ACTIONS, type AuditAction } from '@sac/contract/audit';

/**
 * The areas the Action filter groups the trail's actions by, in the order it lists them; each
 * action belongs to the first area whose rule takes it. An area's words are auditActions.area*.
 */
const AREAS = [
  {
    id: 'areaSignIn',
    takes: (a: string) => /^(login\.|logout$|session\.end$|password\.(forgot|reset))/.test(a),
  },
  {
    id: 'areaAccount',
    takes: (a: string) => /^(password\.change|mfa\.|recovery\.|stepup\.|notifications\.preferences$)/.test(a),
  },
  { id: 'areaStaff', takes: (a: string) => a.startsWith('team.') || a.startsWith('role.') },
  { id: 'areaTokens', takes: (a: string) => a.startsWith('token.') || a === 'allowlist.save' },
  { id: 'areaProvisioning', takes: (a: string) => a.startsWith('scim.') },
  { id: 'areaExports', takes: (a: string) => a.endsWith('.export') },
  { id: 'areaCustomers', takes: (a: string) => a.startsWith('customer.') },
  { id: 'areaSites', takes: (a: string) => a.startsWith('site.') },
  { id: 'areaImpersonation', takes: (a: string) => a.startsWith('impersonation.') },
  { id: 'areaNotices', takes: (a: string) => a.startsWith('notice.') },
  { id: 'areaWebhooks', takes: (a: string) => a.startsWith('webhook.') },
  { id: 'areaBulk', takes: (a: string) => a.startsWith('bulk.') },
  { id: 'areaAccess', takes: (a: string) => a === 'access.refused' },
] as const;
export type AreaId = (typeof AREAS)[number]['id'];

/** The area of an action (every action of the contract has one: the test says so). */
export function areaOf(action: string): AreaId | undefined {
  return AREAS.find((area) => area.takes(action))?.id;
}

/** The actions of each area, in the areas' order, the contract's order within. */
export const ACTIONS_BY_AREA: readonly { area: AreaId; actions: readonly AuditAction[] }[] = AREAS.map(
  (area) => ({ area: area.id, actions: AUDIT_ACTIONS.filter((a) => areaOf(a) === area.id) }),
);
