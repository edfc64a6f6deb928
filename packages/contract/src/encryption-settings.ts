import { z } from 'zod';
import { decimalInteger } from './validation.ts';

/**
 * Password, previous-password and security-answer hashing settings (spec section 3): the
 * algorithms an identity platform must accept for imported hashes.
 */
export const HASH_ALGORITHMS = [
  'Argon2id',
  'Argon2i',
  'PBKDF2-SHA256',
  'PBKDF2-SHA512',
  'HMAC-SHA256',
  'HMAC-SHA512',
  'HMAC-SHA1',
  'SHA-512',
  'SHA-256',
  'SHA-1',
  'MD5',
] as const;
export type HashAlgorithm = (typeof HASH_ALGORITHMS)[number];

/** Why an algorithm is weak for passwords, or undefined when it is fit for them. */
export const WEAK_ALGORITHMS: Partial<Record<HashAlgorithm, string>> = {
  MD5: 'MD5 is broken and fast: accept it only to import old hashes.',
  'SHA-1': 'SHA-1 is broken and fast: accept it only to import old hashes.',
  'SHA-256': 'A single fast hash: weak for passwords even with a salt.',
  'SHA-512': 'A single fast hash: weak for passwords even with a salt.',
  'HMAC-SHA1': 'Fast, and SHA-1 based: weak for passwords.',
  'HMAC-SHA256': 'A single fast keyed hash: weak for passwords unless the key stays secret.',
  'HMAC-SHA512': 'A single fast keyed hash: weak for passwords unless the key stays secret.',
};
export const usesIterations = (a: HashAlgorithm): boolean => a.startsWith('PBKDF2');
export const usesKey = (a: HashAlgorithm): boolean => a.startsWith('HMAC');

export const ENCODINGS = ['hex', 'base64'] as const;
export const SALT_ENCODINGS = ['utf8', 'hex', 'base64'] as const;
export const SALT_ATTACH = ['None', 'Append', 'Prepend'] as const;
export const SETTING_SETS = ['password', 'previous-password', 'security-answer'] as const;
export type SettingSet = (typeof SETTING_SETS)[number];

const settingsShape = {
  EncryptionType: z.enum(HASH_ALGORITHMS, { error: 'Please choose an encryption type.' }),
  HashEncoding: z.enum(ENCODINGS),
  SaltEncoding: z.enum(SALT_ENCODINGS),
  /** A site-wide salt; '' for none. */
  Salt: z.string().max(256, 'At most 256 characters.').default(''),
  /** Whether every password gets its own random salt (stored beside the hash). */
  PerPasswordSalt: z.boolean().default(true),
  /** PBKDF2 only. */
  Iterations: decimalInteger(
    z.number().int().min(1, 'At least 1.').max(10_000_000, 'At most 10,000,000.'),
  ).default(600_000),
  SaltAttach: z.enum(SALT_ATTACH).default('None'),
};

/** The settings as answered: the encryption key is write-only and never sent back. */
const encryptionSettings = z.object({
  ...settingsShape,
  HasEncryptionKey: z.boolean(),
  ModifiedDate: z.string(),
});
export const encryptionSettingsResponse = z.object({ Data: encryptionSettings });

/** POST /admin/save-encryption-settings?uid=&appId= {Set, data} */
export const saveEncryptionSettingsBody = z.object({
  Set: z.enum(SETTING_SETS),
  data: z
    .object({
      ...settingsShape,
      /** HMAC key; omitted or '' keeps the stored key. */
      EncryptionKey: z.string().max(512).optional(),
    })
    .refine((d) => d.SaltAttach === 'None' || d.Salt !== '' || d.PerPasswordSalt, {
      message: 'Choose a salt, or a per-password salt, to attach.',
      path: ['SaltAttach'],
    }),
});

/**
 * Most PBKDF2 iterations a preview computes: OWASP's recommendation for each digest (2023), about
 * a quarter of a second of one core. A setting may be saved with more; its preview is refused.
 */
export const PREVIEW_MAX_ITERATIONS = { 'PBKDF2-SHA256': 600_000, 'PBKDF2-SHA512': 210_000 } as const;
export const previewIterationsMessage = (type: keyof typeof PREVIEW_MAX_ITERATIONS): string =>
  `A preview computes at most ${PREVIEW_MAX_ITERATIONS[type].toLocaleString('en-US')} iterations of ${type}. The settings can be saved with more.`;

/** POST /admin/encryption-settings/preview: the stored form of a sample password. */
export const previewBody = z.object({
  data: saveEncryptionSettingsBody.shape.data.superRefine((d, ctx) => {
    const type = d.EncryptionType;
    if ((type === 'PBKDF2-SHA256' || type === 'PBKDF2-SHA512') && d.Iterations > PREVIEW_MAX_ITERATIONS[type])
      ctx.addIssue({ code: 'custom', path: ['Iterations'], message: previewIterationsMessage(type) });
  }),
  Sample: z.string().min(1, 'Enter a sample password.').max(256),
});
export const previewResponse = z.object({
  Data: z.object({ Stored: z.string(), SaltUsed: z.string(), Weak: z.string().nullable() }),
});

export const ENCRYPTION_MESSAGES = {
  saved: 'Settings saved.',
  keyNeeded: 'This encryption type needs an encryption key.',
} as const;
