import type { Queryable } from '../../db/db.ts';
import { recordImpersonationStep } from '../activity/activity.service.ts';
import { appendLogEntry } from './impersonation.repo.ts';

/**
 * Appends a step to the impersonation log and, as 'impersonation.<step>', to the staff audit trail
 * with its site, the site's owner and the call's request id (neither table accepts changes).
 */
export async function logEvent(db: Queryable, e: Parameters<typeof appendLogEntry>[1]): Promise<void> {
  await appendLogEntry(db, e);
  await recordImpersonationStep(db, { ...e, details: e.details ?? {} });
}
