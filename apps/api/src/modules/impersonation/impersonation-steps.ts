import type { ImpersonationStep } from '@sac/contract/audit';
import type { Queryable } from '../../db/db.ts';
import { recordImpersonationStep } from '../activity/activity.service.ts';
import { appendLogEntry } from './impersonation.repo.ts';

/**
 * Appends a step to the impersonation log and, as 'impersonation.<step>', to the staff audit trail
 * with its site, the site's owner and the call's request id (neither table accepts changes).
 */
export async function logEvent(
  db: Queryable,
  e: {
    requestId: number;
    at: Date;
    actor: string | null;
    event: ImpersonationStep;
    status: string;
    clientAddress?: string | null;
    details?: Record<string, unknown>;
  },
): Promise<void> {
  await appendLogEntry(db, e);
  await recordImpersonationStep(db, { ...e, details: e.details ?? {} });
}
