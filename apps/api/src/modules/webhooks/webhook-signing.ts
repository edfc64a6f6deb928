import { createHmac, randomBytes } from 'node:crypto';
import { WEBHOOK_SECRET_PREFIX } from '@sac/contract/webhooks';

/**
 * Standard Webhooks signing (https://www.standardwebhooks.com): the secret is `whsec_` and the
 * base64 of its key; a signature is `v1,` and the base64 of HMAC-SHA256 under that key over
 * `<webhook-id>.<webhook-timestamp>.<body>`. Several signatures are separated by spaces (a rotated
 * secret signs beside the new one for its overlap).
 */

/** A new secret: 32 random bytes, as Standard Webhooks writes it. */
export const newSigningSecret = (): string => `${WEBHOOK_SECRET_PREFIX}${randomBytes(32).toString('base64')}`;

const keyOf = (secret: string): Buffer =>
  Buffer.from(
    secret.startsWith(WEBHOOK_SECRET_PREFIX) ? secret.slice(WEBHOOK_SECRET_PREFIX.length) : secret,
    'base64',
  );

/** The webhook-signature header's value: one `v1,` signature per secret, newest first. */
export function signatureHeader(
  secrets: readonly string[],
  id: string,
  timestamp: number,
  body: string,
): string {
  const signed = `${id}.${timestamp}.${body}`;
  return secrets.map((s) => `v1,${createHmac('sha256', keyOf(s)).update(signed).digest('base64')}`).join(' ');
}
