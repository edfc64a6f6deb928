import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A 256-bit random secret, URL-safe. */
export const randomSecret = (): string => randomBytes(32).toString('base64url');

/** Secrets are stored only as SHA-256 hashes: they are random, so no slow hash is needed. */
export const hashSecret = (secret: string): Buffer => createHash('sha256').update(secret, 'utf8').digest();

export function sameHash(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}
