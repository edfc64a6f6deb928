import type { AppContext, StaffSession } from '../app-context.ts';
import type { Config } from '../config.ts';
import type { Db, Queryable } from '../db/db.ts';
import { firstRow, qb } from '../db/sql.ts';
import type { ManualClock } from '../lib/clock.ts';
import type { StaffCall } from '../lib/endpoint-route.ts';
import { inProcessBus } from '../lib/staff-event-bus.ts';
import type { MailMessage } from '../mail/mailer.ts';
import type { Mailer } from '../mail/outbox.ts';
import { findStaffByEmail, permissionsOfRoles } from '../modules/auth/staff.service.ts';
import { CONSOLE_AGENT, STAFF_ADDRESS } from './demo-impersonation-data.ts';

/*
 * The context the demo's service calls run in: the seeding transaction as the database, a clock
 * the seed sets to each step's moment, a mailer that keeps the mails of the made-up past, and the
 * demo staff as callers.
 */

/** Later than any clock: a step-up check (now - verifiedAt ≤ window) always passes. */
const ALWAYS_RECENT = new Date(8.64e15);

/** The seeding transaction as a Db: a service's own transaction joins it. */
function asDb(tx: Queryable, kind: Db['kind']): Db {
  return {
    kind,
    query: (sql, params) => tx.query(sql, params),
    exec: (sql) => tx.exec(sql),
    transaction: (fn) => fn(tx),
    close: async () => {},
  };
}

/**
 * Keeps the mails of the made-up past (the consent links are read from them) and sends none; a
 * notice's batch goes into the outbox as delivered at the clock's time, for its delivery log.
 */
function keepingMailer(kept: MailMessage[], tx: Queryable, clock: ManualClock): Mailer {
  return {
    send: async (_q, m) => void kept.push(m),
    sendAll: async (_q, ms) => {
      const ids: number[] = [];
      for (const m of ms) {
        const now = clock.now();
        const r = await firstRow(
          tx,
          qb
            .insertInto('mail_outbox')
            .values({
              created_at: now,
              to_address: m.to,
              subject: m.subject,
              body_text: m.text,
              body_html: m.html ?? null,
              headers: m.headers ? JSON.stringify(m.headers) : null,
              next_attempt_at: now,
              attempts: 1,
              sent_at: now,
            })
            .returning('id'),
        );
        ids.push(Number(r!.id));
      }
      return ids;
    },
    afterAnswer: (work) => void work(),
    flush: async () => {},
    sendDue: async () => {},
    poll: () => {},
    close: () => {},
    description: 'demo seed (not sent)',
  };
}

/**
 * Only what the demo's services read of the context: the database, the clock, the mailer, the
 * staff notifications' bus, the settings (a service reaching for more fails the seed test at once).
 */
export function demoServiceContext(
  tx: Queryable,
  opts: { config: Config; kind: Db['kind']; crypto: AppContext['crypto'] },
  clock: ManualClock,
  mails: MailMessage[],
): AppContext {
  return {
    config: opts.config,
    db: asDb(tx, opts.kind),
    clock,
    mailer: keepingMailer(mails, tx, clock),
    crypto: opts.crypto,
    // The notifications these steps make are kept; no console is listening yet.
    staffEvents: inProcessBus(),
  } as Partial<AppContext> as AppContext;
}

/** The demo staff's sessions, by email, and each one's calls from the console. */
export async function demoStaffCallers(
  tx: Queryable,
  emails: readonly string[],
): Promise<{ sessions: Map<string, StaffSession>; caller(email: string): StaffCall }> {
  const sessions = new Map<string, StaffSession>();
  for (const email of emails) {
    const s = await findStaffByEmail(tx, email);
    if (!s) throw new Error(`no demo staff ${email}`);
    const permissions = new Set(await permissionsOfRoles(tx, s.roles));
    // The demo's own actions are not a person's: they count as just confirmed, whatever its clock says.
    sessions.set(email, {
      sessionId: 0,
      uid: s.uid,
      email,
      name: s.full_name,
      roles: s.roles,
      permissions,
      verifiedAt: ALWAYS_RECENT,
    });
  }
  const caller = (email: string): StaffCall => ({
    session: sessions.get(email)!,
    clientAddress: STAFF_ADDRESS[email]!,
    userAgent: CONSOLE_AGENT,
  });
  return { sessions, caller };
}
