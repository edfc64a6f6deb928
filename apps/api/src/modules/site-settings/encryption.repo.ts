import {
  ENCODINGS,
  HASH_ALGORITHMS,
  SALT_ATTACH,
  SALT_ENCODINGS,
  type SettingSet,
} from '@sac/contract/encryption-settings';
import { z } from 'zod';
import type { Queryable } from '../../db/db.ts';
import { execute, firstRow, qb } from '../../db/sql.ts';
import type { HashSettings } from './password-hashing.ts';

/** The hash settings as stored (written whole by saveEncryptionSettings). */
const storedHashSettings: z.ZodType<HashSettings> = z.object({
  EncryptionType: z.enum(HASH_ALGORITHMS),
  HashEncoding: z.enum(ENCODINGS),
  SaltEncoding: z.enum(SALT_ENCODINGS),
  Salt: z.string(),
  PerPasswordSalt: z.boolean(),
  Iterations: z.number(),
  SaltAttach: z.enum(SALT_ATTACH),
});

/** A set's settings; key_sealed is the encryption key sealed with the server's key, null for none. */
export async function findEncryptionSettings(db: Queryable, appId: number, set: SettingSet) {
  const r = await firstRow(
    db,
    qb
      .selectFrom('encryption_settings')
      .select(['settings', 'key_sealed', 'modified_at'])
      .where('app_id', '=', appId)
      .where('set_name', '=', set),
  );
  return r && { ...r, settings: storedHashSettings.parse(r.settings) };
}

/** The sealed key of a set; undefined when the set is not stored, null when it has no key. */
export async function findSealedKey(
  db: Queryable,
  appId: number,
  set: SettingSet,
): Promise<Uint8Array | null | undefined> {
  const r = await firstRow(
    db,
    qb
      .selectFrom('encryption_settings')
      .select('key_sealed')
      .where('app_id', '=', appId)
      .where('set_name', '=', set),
  );
  return r?.key_sealed;
}

export async function saveEncryptionSettings(
  db: Queryable,
  appId: number,
  set: SettingSet,
  settings: HashSettings,
  keySealed: Uint8Array | null,
  at: Date,
): Promise<void> {
  await execute(
    db,
    qb
      .insertInto('encryption_settings')
      .values({
        app_id: appId,
        set_name: set,
        settings: JSON.stringify(settings),
        key_sealed: keySealed,
        modified_at: at,
      })
      .onConflict((oc) =>
        oc.columns(['app_id', 'set_name']).doUpdateSet((eb) => ({
          settings: eb.ref('excluded.settings'),
          key_sealed: eb.ref('excluded.key_sealed'),
          modified_at: eb.ref('excluded.modified_at'),
        })),
      ),
  );
}
