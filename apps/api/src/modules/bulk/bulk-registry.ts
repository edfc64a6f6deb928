import { BULK_LIST_OF, type BulkAction, type BulkList } from '@sac/contract/bulk';
import type { BulkKind } from './bulk-kinds.ts';
import { customerKind } from './customer-items.ts';
import { invitationKind } from './invitation-items.ts';
import { requestKind } from './request-items.ts';
import { sessionKind } from './session-items.ts';
import { siteKind } from './site-items.ts';

/** Every kind of bulk item, by its list (bulk-kinds.ts): adding a list is adding its kind here. */
const KINDS: Record<BulkList, BulkKind<never>> = {
  'customer-sites': siteKind,
  'impersonation-requests': requestKind,
  'staff-sessions': sessionKind,
  'team-invitations': invitationKind,
  customers: customerKind,
};

/** The kind of a list (a job's `list`). */
export const kindOfList = (list: string): BulkKind<never> => KINDS[list as BulkList];

/** The kind of an action. */
export const kindOf = (action: BulkAction): BulkKind<never> => KINDS[BULK_LIST_OF[action]];
