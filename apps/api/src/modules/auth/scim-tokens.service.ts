import { SCIM_TOKEN_MESSAGES, SCIM_TOKEN_PREFIX } from '@sac/contract/api-tokens';
import type { AppContext } from '../../app-context.ts';
import { AppError } from '../../lib/app-error.ts';
import { randomSecret } from '../../lib/secrets.ts';
import { runWrite } from '../../lib/write-path.ts';
import { writeActivity } from '../activity/activity.service.ts';
import { insertScimToken, listScimTokens, revokeScimToken } from './api-tokens.repo.ts';

/** Who makes or revokes a SCIM token: a SuperAdmin (the endpoint's check). */
interface Maker {
  uid: string | null;
  email: string;
  clientAddress: string;
}

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());
const out = (t: Awaited<ReturnType<typeof insertScimToken>>) => ({
  Id: Number(t.id),
  Name: t.name,
  CreatedAt: iso(t.created_at)!,
  LastUsedAt: iso(t.last_used_at),
  LastUsedAddress: t.last_used_address,
  RevokedAt: iso(t.revoked_at),
});

export async function listTokens(ctx: AppContext) {
  return { Data: (await listScimTokens(ctx.db, ctx.clock.now())).map(out) };
}

/** A SCIM token: the secret answered once, its hash kept. */
export async function createToken(ctx: AppContext, me: Maker, name: string) {
  const at = ctx.clock.now();
  const token = `${SCIM_TOKEN_PREFIX}${randomSecret()}`;
  const made = await runWrite(ctx.db, {
    change: (tx) => insertScimToken(tx, { name, token, by: me.uid, at }),
    trail: (tx, t) =>
      writeActivity(tx, {
        at,
        action: 'scim.token.create',
        actorUid: me.uid,
        actorEmail: me.email,
        targetType: 'scimToken',
        targetId: String(t.id),
        clientAddress: me.clientAddress,
        details: { tokenId: Number(t.id), name },
      }),
  });
  return { Token: token, Data: out(made) };
}

export async function revokeToken(ctx: AppContext, me: Maker, id: number) {
  const at = ctx.clock.now();
  await runWrite(ctx.db, {
    change: async (tx) => {
      const r = await revokeScimToken(tx, id, at, me.uid);
      if (!r) throw new AppError('notFound', SCIM_TOKEN_MESSAGES.notFound);
      return r;
    },
    trail: (tx, t) =>
      writeActivity(tx, {
        at,
        action: 'scim.token.revoke',
        actorUid: me.uid,
        actorEmail: me.email,
        targetType: 'scimToken',
        targetId: String(t.id),
        clientAddress: me.clientAddress,
        details: { tokenId: Number(t.id), name: t.name },
      }),
  });
  return { IsPosted: true, Message: SCIM_TOKEN_MESSAGES.revoked };
}
