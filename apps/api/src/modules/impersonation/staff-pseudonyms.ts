import type { Queryable } from '../../db/db.ts';
import { staffRolesByEmail } from './staff-pseudonyms.repo.ts';

/** Role shown for a staff member: the most senior they hold. */
const ROLE_ORDER = ['SuperAdmin', 'Admin'];

/**
 * How the customer's public site-access page names provider staff. Staff are people the customer
 * never chose to be told about: by default the page shows each one's role and a stable pseudonym
 * ("Support 7KQ2FD"), the same on every request and visit, so the customer can tell one person's
 * steps from another's and quote them to support, without learning who they are or where they
 * worked from. SITE_ACCESS_STAFF_NAMES=email shows their email addresses instead.
 */
export async function staffLabeller(
  db: Queryable,
  mac: (data: string) => Buffer,
  emails: Iterable<string>,
  mode: 'pseudonym' | 'email',
): Promise<(email: string | null) => string | null> {
  const wanted = [...new Set([...emails].map((e) => e.toLowerCase()))];
  const roles = new Map<string, string>();
  if (wanted.length > 0) {
    for (const row of await staffRolesByEmail(db, wanted)) {
      const held = row.roles;
      roles.set(row.email, ROLE_ORDER.find((x) => held.includes(x)) ?? [...held].sort()[0] ?? 'Staff');
    }
  }
  return (email) => {
    if (email === null) return null;
    const key = email.toLowerCase();
    if (mode === 'email') return email;
    const code = mac(key).readUInt32BE(0).toString(36).toUpperCase().padStart(6, '0').slice(-6);
    return `${roles.get(key) ?? 'Staff'} ${code}`;
  };
}
