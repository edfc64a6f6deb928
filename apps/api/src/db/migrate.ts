import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUILT_IN_ROLES } from '@sac/contract/permissions';
import { authChanged, type Db, type Queryable } from './db.ts';

const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** The versioned migration files, `NNNN-name.sql`, in order. */
export function loadMigrations(dir = MIGRATIONS_DIR): Migration[] {
  return fs
    .readdirSync(dir)
    .filter((f) => /^\d{4}-.+\.sql$/.test(f))
    .sort()
    .map((f) => ({
      version: Number(f.slice(0, 4)),
      name: f.slice(5, -4),
      sql: fs.readFileSync(path.join(dir, f), 'utf8'),
    }));
}

/**
 * Applies the migrations not yet applied, each in its own transaction. On PostgreSQL an advisory
 * lock keeps two starting instances from migrating at once. Returns the versions applied.
 */
export async function migrate(db: Db, migrations = loadMigrations()): Promise<number[]> {
  // Under the same lock: two instances starting together on an empty database would otherwise
  // both create the table, and one fails (CREATE TABLE IF NOT EXISTS is not safe concurrently).
  // Not even tried once it is there: an application role that may not create tables (the
  // migrations run as DATABASE_OWNER_URL's) would be refused the CREATE ... IF NOT EXISTS.
  const exists = await db.query<{ t: string | null }>(`SELECT to_regclass('schema_migrations')::text AS t`);
  if (!exists.rows[0]?.t)
    await db.transaction(async (tx) => {
      if (db.kind === 'postgres') await tx.query('SELECT pg_advisory_xact_lock(727001)');
      await tx.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
    });
  // One read to skip what is applied (every start but the first after an upgrade); each missing
  // one is still checked again under the lock.
  const seenBefore = new Set(
    (await db.query<{ version: number }>('SELECT version FROM schema_migrations')).rows.map((r) => r.version),
  );
  const applied: number[] = [];
  for (const m of migrations) {
    if (seenBefore.has(m.version)) continue;
    const done = await db.transaction(async (tx) => {
      if (db.kind === 'postgres') await tx.query('SELECT pg_advisory_xact_lock(727001)');
      const seen = await tx.query('SELECT 1 FROM schema_migrations WHERE version = $1', [m.version]);
      if (seen.rows.length > 0) return false;
      await tx.exec(m.sql);
      await tx.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [m.version, m.name]);
      return true;
    });
    if (done) applied.push(m.version);
  }
  await syncBuiltInRoles(db);
  return applied;
}

/**
 * The built-in roles carry the contract's permissions; other roles are left as they are. Only a
 * role that differs is written (a role write also ends every instance's kept sessions). Under the
 * migrations' lock: two instances starting together on an empty database would both insert a
 * role, and the second's insert fails on the case-blind name index, which ON CONFLICT (name) does
 * not cover.
 */
async function syncBuiltInRoles(db: Db): Promise<void> {
  if (db.kind !== 'postgres') return syncBuiltInRolesOn(db, db);
  await db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock(727001)');
    await syncBuiltInRolesOn(tx, db);
  });
}

async function syncBuiltInRolesOn(q: Queryable, db: Db): Promise<void> {
  const stored = new Map(
    (
      await q.query<{ name: string; description: string; permissions: string[]; built_in: boolean }>(
        'SELECT name, description, permissions, built_in FROM roles WHERE name = ANY($1)',
        [Object.keys(BUILT_IN_ROLES)],
      )
    ).rows.map((r) => [r.name, r]),
  );
  for (const [name, role] of Object.entries(BUILT_IN_ROLES)) {
    const now = stored.get(name);
    if (
      now?.built_in &&
      now.description === role.description &&
      JSON.stringify(now.permissions) === JSON.stringify([...role.permissions])
    )
      continue;
    await q.query(
      `INSERT INTO roles (name, description, permissions, built_in) VALUES ($1, $2, $3, true)
       ON CONFLICT (name) DO UPDATE SET description = EXCLUDED.description, permissions = EXCLUDED.permissions, built_in = true`,
      [name, role.description, [...role.permissions]],
    );
    authChanged(db);
  }
}

/** The append-only trails: the application role may add rows and read them, nothing more. */
const TRAIL_TABLES = ['activity_log', 'impersonation_log'];

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * Gives the application role what it needs and no more, as the owner of the tables, after each
 * migration run (so tables of later migrations get theirs): reads and writes on every table and
 * sequence, but on the trails only SELECT and INSERT, and on schema_migrations only SELECT. Not
 * being their owner, it cannot disable the trails' triggers, alter or drop them either.
 */
export async function grantApplicationRole(owner: Db, role: string): Promise<void> {
  const r = ident(role);
  await owner.transaction(async (tx) => {
    await tx.exec(`GRANT USAGE ON SCHEMA public TO ${r};
      GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO ${r};
      GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA public TO ${r};
      REVOKE UPDATE, DELETE, TRUNCATE, TRIGGER, REFERENCES ON ${TRAIL_TABLES.join(', ')} FROM ${r};
      REVOKE INSERT, UPDATE, DELETE, TRUNCATE, TRIGGER, REFERENCES ON schema_migrations FROM ${r};`);
  });
}

/**
 * The sentence to log at start when the application's own role owns the staff trail on
 * PostgreSQL (one DATABASE_URL for migrations and the application): it could disable the trail's
 * append-only triggers. Undefined when it does not, and on PGlite.
 */
export async function trailOwnerWarning(db: Db): Promise<string | undefined> {
  if (db.kind !== 'postgres') return undefined;
  const r = await db.query<{ owns: boolean }>(
    `SELECT pg_has_role(current_user, c.relowner, 'USAGE') OR (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) AS owns
       FROM pg_class c WHERE c.oid = to_regclass('activity_log')`,
  );
  if (!r.rows[0]?.owns) return undefined;
  return 'The application connects as a role that owns the staff trail (activity_log) and could disable its append-only triggers: set DATABASE_OWNER_URL to the owner and DATABASE_URL to a role that does not own it (docs/operations.md).';
}
