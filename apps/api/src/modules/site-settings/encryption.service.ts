import {
  ENCRYPTION_MESSAGES,
  type SettingSet,
  usesKey,
  WEAK_ALGORITHMS,
} from '@sac/contract/encryption-settings';
import type { AppContext } from '../../app-context.ts';
import { recordVersion } from '../../db/record-versions.repo.ts';
import { AppError } from '../../lib/app-error.ts';
import type { StaffCall } from '../../lib/endpoint-route.ts';
import { isoOrNull } from '../../lib/iso.ts';
import { inHashingQueue } from '../../lib/password-hash.ts';
import { Versioned } from '../../lib/record-version.ts';
import { Semaphore } from '../../lib/semaphore.ts';
import { ownedSite, type SiteInput, siteWrite } from '../customers/sites.service.ts';
import * as repo from './encryption.repo.ts';
import { type HashSettings, hashWithSettings, type Pbkdf2 } from './password-hashing.ts';

/** Encryption and hashing settings of a site's passwords, previous passwords and security answers. */

const DEFAULT_HASHING: HashSettings = {
  EncryptionType: 'Argon2id',
  HashEncoding: 'base64',
  SaltEncoding: 'utf8',
  Salt: '',
  PerPasswordSalt: true,
  Iterations: 600_000,
  SaltAttach: 'None',
};

/** The record whose version guards one hashing set of a site (0 until first saved). */
const encryptionRecord = (appId: number, set: SettingSet) => `site:${appId}:encryption:${set}`;

export async function getEncryptionSettings(ctx: AppContext, uid: string, appId: number, set: SettingSet) {
  await ownedSite(ctx.db, uid, appId);
  const row = await repo.findEncryptionSettings(ctx.db, appId, set);
  // A set never saved: 1037 or 1090 (the console shows the defaults as version 0).
  if (!row) {
    if (set === 'previous-password') throw new AppError('previousPasswordSettingsNotSet');
    if (set === 'security-answer') throw new AppError('securityAnswerSettingsNotSet');
  }
  const Data = row
    ? {
        ...DEFAULT_HASHING,
        ...row.settings,
        HasEncryptionKey: row.key_sealed !== null,
        ModifiedDate: isoOrNull(row.modified_at)!,
      }
    : { ...DEFAULT_HASHING, HasEncryptionKey: false, ModifiedDate: new Date(0).toISOString() };
  return new Versioned({ Data }, await recordVersion(ctx.db, encryptionRecord(appId, set)));
}

/** The version the form was read at is 0 when it showed the defaults of a set never saved. */
export async function saveEncryptionSettings(
  ctx: AppContext,
  call: StaffCall,
  input: SiteInput & { Set: SettingSet; data: HashSettings & { EncryptionKey?: string } },
) {
  const { Set: set } = input;
  const { EncryptionKey, ...settings } = input.data;
  await siteWrite(ctx, call, input, {
    action: 'site.encryption',
    record: encryptionRecord(input.appId, set),
    change: async (tx) => {
      // The stored key is read after the claim, so a key kept is the one of the version written over.
      const existing = await repo.findSealedKey(tx, input.appId, set);
      const sealed = EncryptionKey ? ctx.crypto.encrypt(EncryptionKey) : (existing ?? null);
      if (usesKey(settings.EncryptionType) && !sealed) throw new AppError('encryptionKeyNeeded');
      await repo.saveEncryptionSettings(tx, input.appId, set, settings, sealed, ctx.clock.now());
    },
    // the key itself is never logged
    details: () => ({ set, type: settings.EncryptionType, keyChanged: Boolean(EncryptionKey) }),
  });
  const read = await getEncryptionSettings(ctx, input.uid, input.appId, set);
  return new Versioned({ ...read.body, Message: ENCRYPTION_MESSAGES.saved }, read.version);
}

const previews = new Semaphore(1);
const PREVIEWS_WAITING = 2;

export async function previewHash(
  ctx: AppContext,
  uid: string,
  appId: number,
  data: HashSettings & { EncryptionKey?: string },
  sample: string,
) {
  // Previews run one at a time, with at most PREVIEWS_WAITING behind (then 503 at once, before
  // any statement, and again after the site's lookup). The contract caps PBKDF2 iterations;
  // PBKDF2 runs on the preview sandbox's thread, below the priority of sign-ins' hashes, and
  // argon2 (fixed cost, as a sign-in's) in the hashing queue.
  const busy = () => {
    if (previews.load.waiting >= PREVIEWS_WAITING)
      throw Object.assign(new AppError('previewBusy'), { retryAfterSeconds: 1 });
  };
  busy();
  await ownedSite(ctx.db, uid, appId);
  if (usesKey(data.EncryptionType) && !data.EncryptionKey) throw new AppError('encryptionKeyNeeded');
  busy();
  const pbkdf2: Pbkdf2 = async (material, salt, iterations, keylen, digest) =>
    Buffer.from((await ctx.previewSandbox.run('pbkdf2', { material, salt, iterations, keylen, digest })).key);
  const { stored, salt } = await previews.run(() =>
    data.EncryptionType.startsWith('Argon2')
      ? inHashingQueue(() => hashWithSettings(data, sample, data.EncryptionKey))
      : hashWithSettings(data, sample, data.EncryptionKey, undefined, pbkdf2),
  );
  return { Data: { Stored: stored, SaltUsed: salt, Weak: WEAK_ALGORITHMS[data.EncryptionType] ?? null } };
}
