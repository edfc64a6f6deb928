import { ROLE_SUPER_ADMIN } from '@sac/contract/permissions';
import type { TestApp } from './harness.ts';

type Session = { xtoken: string; xsign: string };

/** The invitation mails to `email` once there are at least `count` (waits a few seconds for them). */
export async function invitationMails(t: TestApp, email: string, count: number) {
  for (let i = 0; i < 250; i++) {
    const got = t.smtp.messages.filter((m) => m.to.includes(email));
    if (got.length >= count) return got;
    await new Promise((r) => setTimeout(r, 20));
  }
  return t.smtp.messages.filter((m) => m.to.includes(email));
}

/** The token of the `count`th invitation mailed to `email`. */
export async function invitationToken(t: TestApp, email: string, count = 1): Promise<string> {
  const mail = (await invitationMails(t, email, count))[count - 1];
  if (!mail) throw new Error(`no invitation ${count} to ${email}`);
  return new URL(/https?:\/\/\S+/.exec(mail.text)![0]).searchParams.get('vtoken')!;
}

/** The invitee sets their password through the link with `token`. */
export const acceptInvitation = (t: TestApp, token: string) =>
  t.call('resetPassword', { body: { password: 'Hired#123', resettoken: token } });

/**
 * A member invited by `inviter` with `roles`, their invitation pending: uid, email and the link's
 * token. The SuperAdmin role, which an invitation may not give, is given by a role change after.
 */
export async function inviteeOf(t: TestApp, inviter: Session, email: string, roles = ['Support']) {
  const asked = roles.filter((r) => r !== ROLE_SUPER_ADMIN);
  const r = await t.call('teamCreate', {
    session: inviter,
    body: { role: asked.length ? asked : ['Support'], email, name: email.split('@')[0]! },
  });
  if (r.status !== 200) throw new Error(`teamCreate: ${r.status} ${r.raw.body}`);
  const uid = r.body.Data.Uid;
  if (roles.includes(ROLE_SUPER_ADMIN)) {
    const promoted = await t.call('teamUpdateRoles', {
      session: inviter,
      body: { role: roles, uid, unAssignRoles: asked.length ? [] : ['Support'] },
    });
    if (promoted.status !== 200) throw new Error(`teamUpdateRoles: ${promoted.status} ${promoted.raw.body}`);
  }
  return { uid, email, token: await invitationToken(t, email) };
}
