import { timingSafeEqual } from 'node:crypto';
import type { FieldCrypto } from '../../lib/field-crypto.ts';

/**
 * The token of an announcement's unsubscribe link: the recipient's address (lower case) and its
 * HMAC-SHA-256 under a key derived from the server's field key, both base64url, joined by a dot.
 * Every instance sharing the database holds the same key (FIELD_ENCRYPTION_KEY), so any of them
 * accepts the link; a forged or altered token does not verify. It does not expire: the address
 * may unsubscribe from any announcement it ever received.
 */
const PURPOSE = 'notice-unsubscribe';
const EMAIL_MAX = 254;

export function unsubscribeToken(crypto: FieldCrypto, email: string): string {
  const address = email.toLowerCase();
  return `${Buffer.from(address, 'utf8').toString('base64url')}.${crypto.mac(PURPOSE, address).toString('base64url')}`;
}

/** The address a token was signed for, or undefined when it does not verify. */
export function verifyUnsubscribeToken(crypto: FieldCrypto, token: string): string | undefined {
  const [addressPart, macPart, extra] = token.split('.');
  if (!addressPart || !macPart || extra !== undefined) return undefined;
  const address = Buffer.from(addressPart, 'base64url').toString('utf8');
  // The address must round-trip (no stray characters that base64url decoding drops).
  if (
    address.length === 0 ||
    address.length > EMAIL_MAX ||
    Buffer.from(address, 'utf8').toString('base64url') !== addressPart
  )
    return undefined;
  if (address !== address.toLowerCase() || !address.includes('@')) return undefined;
  const given = Buffer.from(macPart, 'base64url');
  const wanted = crypto.mac(PURPOSE, address);
  return given.length === wanted.length && timingSafeEqual(given, wanted) ? address : undefined;
}

/** j***@example.com: enough for the owner to recognise, little for anyone else. */
export function maskedAddress(email: string): string {
  const at = email.lastIndexOf('@');
  const local = email.slice(0, at);
  return `${local.slice(0, 1)}***${email.slice(at)}`;
}
