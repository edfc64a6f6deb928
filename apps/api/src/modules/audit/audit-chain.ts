import { createPrivateKey, createPublicKey, hash, type KeyObject, sign, verify } from 'node:crypto';
import { AUDIT_EVENT_FIELDS, AUDIT_EXPORT_VERSION, type AuditEvent } from '@sac/contract/audit';
import type { FieldCrypto } from '../../lib/field-crypto.ts';

/**
 * The tamper evidence of an exported trail. Each row carries Chain = SHA-256(previous Chain, a
 * newline, the row's canonical JSON), starting from 64 zeros; the last line carries the number of
 * rows, the last Chain (the head), the filters and the time of the export, signed with the
 * server's Ed25519 key. Changing, removing, adding or reordering a row breaks the chain; cutting
 * the file loses the signed end; re-computing the chain needs the private key to sign the new
 * head. The public key (GET /admin/audit/signing-key) lets anyone verify a file offline.
 */

export const GENESIS = '0'.repeat(64);

/** Each field's name as JSON, then a colon: the start of its member in the canonical JSON. */
const MEMBER_STARTS = AUDIT_EVENT_FIELDS.map((f) => `${JSON.stringify(f)}:`);

/**
 * The row as hashed: its fields in AUDIT_EVENT_FIELDS order, as JSON: the text JSON.stringify
 * writes for an object of those fields in that order (a field whose value JSON cannot write,
 * undefined, left out as it leaves it out), written member by member, without building the object
 * (the export writes one for every row).
 */
export function canonicalEvent(e: AuditEvent): string {
  let out = '';
  for (let i = 0; i < AUDIT_EVENT_FIELDS.length; i++) {
    const value = JSON.stringify(e[AUDIT_EVENT_FIELDS[i]!]) as string | undefined;
    if (value === undefined) continue;
    out += `${out ? ',' : ''}${MEMBER_STARTS[i]}${value}`;
  }
  return `{${out}}`;
}

/** One-shot: no hash object a row (an export hashes every row it writes). */
export const nextChain = (previous: string, canonical: string): string =>
  hash('sha256', `${previous}\n${canonical}`, 'hex');

/** What the signature covers. */
export interface ExportSeal {
  rows: number;
  head: string;
  filters: Record<string, unknown>;
  exportedAt: string;
}
const sealText = (s: ExportSeal): string =>
  [AUDIT_EXPORT_VERSION, String(s.rows), s.head, JSON.stringify(s.filters), s.exportedAt].join('\n');

/** PKCS#8 DER of an Ed25519 private key is this prefix and the 32-byte seed (RFC 8410). */
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/**
 * The signing key, derived from the field encryption key: every instance that shares that key
 * signs with the same pair, and nothing more is stored.
 */
export function exportSigningKey(crypto: FieldCrypto): { privateKey: KeyObject; publicKeyPem: string } {
  const seed = crypto.mac('audit-export-signing', 'ed25519-seed-v1');
  const privateKey = createPrivateKey({
    key: Buffer.concat([ED25519_PKCS8_PREFIX, seed]),
    format: 'der',
    type: 'pkcs8',
  });
  const publicKeyPem = createPublicKey(privateKey).export({ format: 'pem', type: 'spki' }).toString();
  return { privateKey, publicKeyPem };
}

export const signSeal = (s: ExportSeal, privateKey: KeyObject): string =>
  sign(null, Buffer.from(sealText(s), 'utf8'), privateKey).toString('base64');

export function sealIsSigned(s: ExportSeal, signature: string, publicKeyPem: string): boolean {
  try {
    return verify(null, Buffer.from(sealText(s), 'utf8'), publicKeyPem, Buffer.from(signature, 'base64'));
  } catch {
    return false;
  }
}
