import type { SettingSet } from '@sac/contract/encryption-settings';
import type { Queryable } from '../../db/db.ts';
import type { HashSettings } from './password-hashing.ts';

export interface EncryptionRow {
  settings: HashSettings;
  /** The encryption key, sealed with the server's key; null when the set has none. */
  key_sealed: Uint8Array | null;
  modified_at: Date;
}

export async function findEncryptionSettings(
  db: Queryable,
  appId: number,
  set: SettingSet,
): Promise<EncryptionRow | undefined> {
  const r = await db.query<EncryptionRow>(
    'SELECT settings, key_sealed, modified_at FROM encryption_settings WHERE app_id = $1 AND set_name = $2',
    [appId, set],
  );
  return r.rows[0];
}

/** The sealed key of a set; undefined when the set is not stored, null when it has no key. */
export async function findSealedKey(
  db: Queryable,
  appId: number,
  set: SettingSet,
): Promise<Uint8Array | null | undefined> {
  const r = await db.query<{ key_sealed: Uint8Array | null }>(
    'SELECT key_sealed FROM encryption_settings WHERE app_id = $1 AND set_name = $2',
    [appId, set],
  );
  return r.rows[0]?.key_sealed;
}

export async function saveEncryptionSettings(
  db: Queryable,
  appId: number,
  set: SettingSet,
  settings: HashSettings,
  keySealed: Uint8Array | null,
  at: Date,
): Promise<void> {
  await db.query(
    `INSERT INTO encryption_settings (app_id, set_name, settings, key_sealed, modified_at) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (app_id, set_name) DO UPDATE SET settings = EXCLUDED.settings, key_sealed = EXCLUDED.key_sealed,
       modified_at = EXCLUDED.modified_at`,
    [appId, set, JSON.stringify(settings), keySealed, at],
  );
}
