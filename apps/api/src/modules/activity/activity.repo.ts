import type { Queryable } from '../../db/db.ts';

/** The actions written to the activity log by the foundation; later modules add theirs. */
export type ActivityAction =
  | 'login.success'
  | 'login.failed'
  | 'login.lockout'
  | 'login.throttled'
  | 'logout'
  | 'session.end'
  | 'password.forgot'
  | 'password.reset'
  | 'password.reset.failed'
  | 'password.change'
  | 'password.change.failed'
  | 'login.second-step'
  | 'mfa.failed'
  | 'mfa.success'
  | 'mfa.enrol'
  | 'mfa.remove'
  | 'mfa.rename'
  | 'mfa.reset'
  | 'recovery.used'
  | 'recovery.renew'
  | 'team.create'
  | 'team.roles'
  | 'team.delete'
  | 'customer.create'
  | 'customer.profile.update'
  | 'customer.password.reset'
  | 'customer.email.verify'
  | 'site.create'
  | 'site.basicsettings'
  | 'site.features'
  | 'site.datacenter'
  | 'site.secret.rotate'
  | 'site.secret.retire'
  | 'site.activate'
  | 'site.deactivate'
  | 'site.customobject.create'
  | 'site.customobject.delete'
  | 'site.customobject.schema'
  | 'site.customdomain.create'
  | 'site.customdomain.delete'
  | 'site.customdomain.verify'
  | 'site.appsettings'
  | 'site.security'
  | 'site.encryption'
  | 'site.fields'
  | 'site.datasource';

export interface ActivityEntry {
  at: Date;
  action: ActivityAction;
  actorUid?: string | null;
  actorEmail?: string | null;
  targetType?: string;
  targetId?: string;
  clientAddress?: string | null;
  details?: Record<string, unknown>;
}

/** Appends one row to the activity log (append-only: nothing here updates or deletes). */
export async function writeActivity(db: Queryable, e: ActivityEntry): Promise<void> {
  await db.query(
    `INSERT INTO activity_log (at, actor_uid, actor_email, action, target_type, target_id, client_address, details)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      e.at,
      e.actorUid ?? null,
      e.actorEmail ?? null,
      e.action,
      e.targetType ?? null,
      e.targetId ?? null,
      e.clientAddress ?? null,
      JSON.stringify(e.details ?? {}),
    ],
  );
}
