import { createHash, createHmac, pbkdf2, randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { hash } from '@node-rs/argon2';
import type { HashAlgorithm } from '@sac/contract/encryption-settings';
import { ARGON2_ALGORITHM } from '../../lib/password-hash.ts';

// PBKDF2 runs on libuv's thread pool, off the event loop.
const pbkdf2Async = promisify(pbkdf2);

export interface HashSettings {
  EncryptionType: HashAlgorithm;
  HashEncoding: 'hex' | 'base64';
  SaltEncoding: 'utf8' | 'hex' | 'base64';
  Salt: string;
  PerPasswordSalt: boolean;
  Iterations: number;
  SaltAttach: 'None' | 'Append' | 'Prepend';
}

/**
 * Hashes `password` the way a site's settings say, with real implementations: argon2 (the same
 * native addon the console uses for staff), Node's PBKDF2, HMAC and digests. The salt is the
 * site salt (decoded with SaltEncoding) followed by a per-password salt when enabled; SaltAttach
 * appends or prepends it to the password before hashing (Argon2 and PBKDF2 also take it natively).
 */
export type Pbkdf2 = (
  material: Buffer,
  salt: Buffer,
  iterations: number,
  keylen: number,
  digest: 'sha256' | 'sha512',
) => Promise<Buffer>;

export async function hashWithSettings(
  s: HashSettings,
  password: string,
  key: string | undefined,
  perPasswordSalt: Buffer = randomBytes(16),
  /** Where PBKDF2 runs: libuv's pool by default; a preview passes its low-priority thread. */
  pbkdf2: Pbkdf2 = pbkdf2Async,
): Promise<{ stored: string; salt: string }> {
  const siteSalt = s.Salt ? Buffer.from(s.Salt, s.SaltEncoding) : Buffer.alloc(0);
  const salt = Buffer.concat([siteSalt, s.PerPasswordSalt ? perPasswordSalt : Buffer.alloc(0)]);
  const pw = Buffer.from(password, 'utf8');
  const material =
    s.SaltAttach === 'Append'
      ? Buffer.concat([pw, salt])
      : s.SaltAttach === 'Prepend'
        ? Buffer.concat([salt, pw])
        : pw;
  const encode = (b: Buffer) => b.toString(s.HashEncoding);
  let stored: string;
  switch (s.EncryptionType) {
    case 'Argon2id':
    case 'Argon2i': {
      // argon2 needs a salt of 8 bytes or more: pad a short one deterministically
      const argonSalt = salt.length >= 8 ? salt : Buffer.concat([salt, Buffer.alloc(8 - salt.length)]);
      stored = await hash(material, {
        algorithm: ARGON2_ALGORITHM[s.EncryptionType],
        salt: argonSalt,
        memoryCost: 19_456,
        timeCost: 2,
        parallelism: 1,
      });
      break;
    }
    case 'PBKDF2-SHA256':
      stored = encode(await pbkdf2(material, salt, s.Iterations, 32, 'sha256'));
      break;
    case 'PBKDF2-SHA512':
      stored = encode(await pbkdf2(material, salt, s.Iterations, 64, 'sha512'));
      break;
    case 'HMAC-SHA256':
    case 'HMAC-SHA512':
    case 'HMAC-SHA1': {
      const alg =
        s.EncryptionType === 'HMAC-SHA256'
          ? 'sha256'
          : s.EncryptionType === 'HMAC-SHA512'
            ? 'sha512'
            : 'sha1';
      stored = encode(
        createHmac(alg, key ?? '')
          .update(material)
          .digest(),
      );
      break;
    }
    case 'SHA-512':
      stored = encode(createHash('sha512').update(material).digest());
      break;
    case 'SHA-256':
      stored = encode(createHash('sha256').update(material).digest());
      break;
    case 'SHA-1':
      stored = encode(createHash('sha1').update(material).digest());
      break;
    case 'MD5':
      stored = encode(createHash('md5').update(material).digest());
      break;
  }
  return { stored, salt: salt.toString(s.HashEncoding) };
}
