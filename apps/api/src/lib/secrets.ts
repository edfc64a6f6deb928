import { hash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A 256-bit random secret, URL-safe. */
export const randomSecret = (): string => randomBytes(32).toString('base64url');

/**
 * Secrets are stored only as SHA-256 hashes: they are random, so no slow hash is needed. One-shot
 * (crypto.hash): every authenticated call hashes two, and a Hash object costs several times more.
 */
export const hashSecret = (secret: string): Buffer => hash('sha256', secret, 'buffer');

export function sameHash(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}
