import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { TOTP } from '@sac/contract/mfa';

/** RFC 6238 one-time codes (SHA-1, 6 digits, 30 s) and the RFC 4648 base32 their secrets are shown in. */

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

export function base32Encode(bytes: Uint8Array): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const b of bytes) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

export function base32Decode(text: string): Buffer {
  const clean = text.replace(/[\s=]/g, '').toUpperCase();
  const out: number[] = [];
  let bits = 0;
  let value = 0;
  for (const ch of clean) {
    const i = BASE32.indexOf(ch);
    if (i < 0) throw new Error('Not base32.');
    value = (value << 5) | i;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** A new shared secret: 160 bits, RFC 4226's recommended length for HMAC-SHA-1. */
export const newTotpSecret = (): Buffer => randomBytes(20);

/** The 30 s step a moment falls in (RFC 6238's T, with T0 = 0). */
export const totpStepOf = (at: Date): number => Math.floor(at.getTime() / (TOTP.stepSeconds * 1000));

/** The code of one step (RFC 4226 HOTP with the step as counter, dynamic truncation). */
export function totpCodeAt(secret: Uint8Array, step: number): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(step));
  const h = createHmac('sha1', secret).update(counter).digest();
  const o = h[h.length - 1]! & 0x0f;
  const n = ((h[o]! & 0x7f) << 24) | (h[o + 1]! << 16) | (h[o + 2]! << 8) | h[o + 3]!;
  return String(n % 10 ** TOTP.digits).padStart(TOTP.digits, '0');
}

/**
 * The step (the current one, or one step either side for clock skew) whose code is `code` and
 * that is later than `lastUsedStep` (a code is good once: a replay in its step, or a code of an
 * earlier step after a later one was used, is refused). Every candidate is compared in constant
 * time. Undefined when none matches.
 */
export function acceptedTotpStep(
  secret: Uint8Array,
  code: string,
  at: Date,
  lastUsedStep: number,
): number | undefined {
  const now = totpStepOf(at);
  const given = Buffer.from(code.padEnd(TOTP.digits, ' ').slice(0, TOTP.digits));
  let accepted: number | undefined;
  for (const step of [now - 1, now, now + 1]) {
    const same = timingSafeEqual(Buffer.from(totpCodeAt(secret, step)), given);
    if (same && step > lastUsedStep && accepted === undefined) accepted = step;
  }
  return accepted;
}

/** The otpauth:// address authenticator apps read from the QR code (Key Uri Format). */
export function otpauthUrl(issuer: string, account: string, secret: Uint8Array): string {
  const label = `${encodeURIComponent(issuer)}:${encodeURIComponent(account)}`;
  const q = new URLSearchParams({
    secret: base32Encode(secret),
    issuer,
    algorithm: TOTP.algorithm,
    digits: String(TOTP.digits),
    period: String(TOTP.stepSeconds),
  });
  return `otpauth://totp/${label}?${q.toString()}`;
}
