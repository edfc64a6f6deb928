import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * AES-256-GCM for secrets kept at rest (custom database connection strings). Layout:
 * version byte 1 | 12-byte IV | 16-byte tag | ciphertext.
 */
export interface FieldCrypto {
  encrypt(plain: string): Buffer;
  decrypt(sealed: Uint8Array): string;
  /** A keyed digest (HMAC-SHA-256 under a key derived for `purpose`): stable, and not guessable without the key. */
  mac(purpose: string, data: string): Buffer;
}

export function fieldCrypto(key: Buffer): FieldCrypto {
  if (key.length !== 32) throw new Error('The field encryption key must be 32 bytes.');
  return {
    encrypt(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return Buffer.concat([Buffer.from([1]), iv, cipher.getAuthTag(), body]);
    },
    decrypt(sealed) {
      const b = Buffer.from(sealed);
      if (b[0] !== 1) throw new Error('Unknown ciphertext version.');
      const decipher = createDecipheriv('aes-256-gcm', key, b.subarray(1, 13));
      decipher.setAuthTag(b.subarray(13, 29));
      return Buffer.concat([decipher.update(b.subarray(29)), decipher.final()]).toString('utf8');
    },
    mac(purpose, data) {
      const derived = createHmac('sha256', key).update(`mac:${purpose}`).digest();
      return createHmac('sha256', derived).update(data).digest();
    },
  };
}

/**
 * The key: FIELD_ENCRYPTION_KEY (base64 of 32 bytes) when set, which every instance sharing a
 * PostgreSQL database must have; otherwise one generated once into the data directory.
 */
export function loadFieldKey(envValue: string | undefined, dataDir: string): Buffer {
  if (envValue) return Buffer.from(envValue, 'base64');
  const file = path.join(dataDir, 'field-encryption.key');
  if (fs.existsSync(file)) return Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64');
  fs.mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(32);
  fs.writeFileSync(file, key.toString('base64'), { mode: 0o600 });
  return key;
}

/** A connection string with its password (and any query secrets) masked, for display. */
export function maskConnectionString(conn: string): string {
  try {
    const u = new URL(conn);
    if (u.password) u.password = '****';
    for (const k of [...u.searchParams.keys()]) {
      if (/pass|secret|key|token/i.test(k)) u.searchParams.set(k, '****');
    }
    return u.toString();
  } catch {
    return conn.replace(/(password|pwd)=([^;]*)/gi, '$1=****');
  }
}
