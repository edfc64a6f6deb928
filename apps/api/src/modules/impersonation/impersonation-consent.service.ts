import { consolePaths } from '@sac/contract/console-paths';
import { transition } from '@sac/contract/impersonation';
import { CONSENT_LINK_TTL_MS, IMPERSONATION_MESSAGES as M } from '@sac/contract/impersonation-api';
import type { AppContext, Caller } from '../../app-context.ts';
import type { Queryable } from '../../db/db.ts';
import { AppError } from '../../lib/app-error.ts';
import { consolePageFor } from '../../lib/console-url.ts';
import { hashSecret, randomSecret } from '../../lib/secrets.ts';
import { runWrite } from '../../lib/write-path.ts';
import {
  announceImpersonationChange,
  notifyStaff,
} from '../staff-notifications/staff-notifications.service.ts';
import { findRequest, recordConsent, saveState, stateOf } from './impersonation.repo.ts';
import { consentDetailsOut } from './impersonation.wire.ts';
import { findConsentToken, insertConsentToken, markConsentTokenUsed } from './impersonation-links.repo.ts';
import { logEvent } from './impersonation-steps.ts';
import { storedWhyDetails } from './impersonation-why.ts';
import { refuse } from './transition-refusal.ts';

/**
 * The owner's consent link (single-use, stored hashed, 7 days) to a request; answers its address.
 * Pass the transaction that opens the request.
 */
export async function issueConsentLink(
  db: Queryable,
  ctx: AppContext,
  requestId: number,
  origin: string | undefined,
  now: Date,
): Promise<string> {
  const token = randomSecret();
  await insertConsentToken(db, {
    tokenHash: hashSecret(token),
    requestId,
    at: now,
    expiresAt: new Date(now.getTime() + CONSENT_LINK_TTL_MS),
  });
  const url = consolePageFor(ctx.config, origin, consolePaths.impersonationConsent());
  url.searchParams.set('token', token);
  return url.toString();
}

/** The request of a consent link that is unused and unexpired; `lock` locks the token and the request. */
async function consentRow(db: Queryable, token: string, now: Date, lock = false) {
  const t = await findConsentToken(db, hashSecret(token), lock);
  if (!t || t.used_at || new Date(t.expires_at) <= now) throw new AppError('consentLinkInvalid');
  const row = await findRequest(db, Number(t.request_id), lock);
  if (!row) throw new AppError('consentLinkInvalid');
  return row;
}

/** The public consent page: what is asked, from the single-use link's token. */
export async function consentDetails(ctx: AppContext, _call: Caller, input: { token: string }) {
  const row = await consentRow(ctx.db, input.token, ctx.clock.now());
  return { Data: consentDetailsOut(row, ctx.config.impersonationReasons) };
}

/**
 * The owner allows or denies, through the write path: the link's token and its request locked,
 * the link's validity and the transition decided under that lock; the answer recorded with time
 * and address, logged, and the staff member who asked told. The link then stops working.
 */
export async function answerConsent(
  ctx: AppContext,
  call: Caller,
  input: { token: string; granted: boolean },
) {
  const { token, granted } = input;
  const now = ctx.clock.now();
  await runWrite(ctx.db, {
    lock: async (tx) => {
      const row = await consentRow(tx, token, now, true);
      const r = transition(stateOf(row), { type: 'consent', granted }, now.getTime());
      if (!r.ok) refuse(r.error);
      return { row, state: r.state };
    },
    change: async (tx, { row, state }) => {
      await markConsentTokenUsed(tx, hashSecret(token), now);
      await saveState(tx, Number(row.id), state, { at: now });
      await recordConsent(tx, Number(row.id), now, call.clientAddress);
    },
    trail: async (tx, _done, { row, state }) => {
      await logEvent(tx, {
        requestId: Number(row.id),
        at: now,
        actor: row.owner_email,
        event: granted ? 'consent-granted' : 'consent-denied',
        status: state.status,
        clientAddress: call.clientAddress,
        details: storedWhyDetails(row),
      });
      announceImpersonationChange(tx, ctx);
      // "Consent received on my request", to the staff member who asked.
      const status = granted ? 'Granted' : 'Denied';
      await notifyStaff(tx, ctx, {
        kind: 'consent',
        to: [{ uid: row.initiator_uid }],
        actorEmail: null,
        shownActor: row.owner_email,
        requestId: Number(row.id),
        appName: row.app_name,
        details: { status },
        mail: {
          subject: `The owner of ${row.app_name} ${granted ? 'allowed' : 'denied'} request ${row.id}`,
          lines: [
            `The owner of ${row.app_name} (${row.owner_email}) ${granted ? 'allowed' : 'denied'} your impersonation request ${row.id}.`,
          ],
          path: consolePaths.impersonationRequests({ request: Number(row.id) }),
        },
      });
    },
  });
  return { IsPosted: true, Message: granted ? M.consentGranted : M.consentDenied };
}
