import { createHash, generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import type { passkeyAssertion, passkeyRegistration } from '@sac/contract/mfa';
import type { z } from 'zod';

/**
 * A software passkey authenticator for Node tests and benchmarks: a P-256 key, a 'none'
 * attestation, and assertions signed as a platform authenticator would (user present and
 * verified), in the JSON shape browsers hand to the page (base64url fields).
 */

const b64url = (b: Uint8Array) => Buffer.from(b).toString('base64url');

/** The few CBOR types WebAuthn needs: unsigned and negative integers, byte and text strings, maps. */
function cbor(v: unknown): Buffer {
  const head = (major: number, n: number): Buffer => {
    if (n < 24) return Buffer.from([(major << 5) | n]);
    if (n < 256) return Buffer.from([(major << 5) | 24, n]);
    if (n < 65536) return Buffer.from([(major << 5) | 25, n >> 8, n & 255]);
    const b = Buffer.alloc(5);
    b[0] = (major << 5) | 26;
    b.writeUInt32BE(n, 1);
    return b;
  };
  if (typeof v === 'number') return v >= 0 ? head(0, v) : head(1, -1 - v);
  if (typeof v === 'string') {
    const s = Buffer.from(v, 'utf8');
    return Buffer.concat([head(3, s.length), s]);
  }
  if (v instanceof Uint8Array) return Buffer.concat([head(2, v.length), Buffer.from(v)]);
  if (v instanceof Map) {
    const parts = [head(5, v.size)];
    for (const [k, val] of v) parts.push(cbor(k), cbor(val));
    return Buffer.concat(parts);
  }
  throw new Error(`cbor: unsupported ${typeof v}`);
}

/** WebAuthn options as the API answers them (PublicKeyCredentialCreation/RequestOptionsJSON). */
type WebauthnOptions = { challenge: string; [key: string]: unknown };

export interface SoftPasskey {
  credentialId: string;
  register(options: WebauthnOptions, origin: string): z.input<typeof passkeyRegistration>;
  assert(options: WebauthnOptions, origin: string): z.input<typeof passkeyAssertion>;
}

/** The relying party's id in creation options ({ rp: { id } }), when they name one. */
const rpIdOf = (rp: unknown) =>
  rp && typeof rp === 'object' && 'id' in rp && typeof rp.id === 'string' ? rp.id : undefined;

export function softPasskey(): SoftPasskey {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = publicKey.export({ format: 'jwk' });
  const credId = randomBytes(32);
  let counter = 0;
  const cose = cbor(
    new Map<number, unknown>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, Buffer.from(jwk.x!, 'base64url')],
      [-3, Buffer.from(jwk.y!, 'base64url')],
    ]),
  );
  const rpHash = (rpId: string) => createHash('sha256').update(rpId).digest();
  const count = () => {
    const b = Buffer.alloc(4);
    b.writeUInt32BE(++counter);
    return b;
  };
  return {
    credentialId: b64url(credId),
    register(options, origin) {
      const rpId = rpIdOf(options.rp) ?? new URL(origin).hostname;
      const idLen = Buffer.alloc(2);
      idLen.writeUInt16BE(credId.length);
      // flags: user present, user verified, attested credential data
      const authData = Buffer.concat([
        rpHash(rpId),
        Buffer.from([0x45]),
        count(),
        Buffer.alloc(16),
        idLen,
        credId,
        cose,
      ]);
      const clientData = Buffer.from(
        JSON.stringify({ type: 'webauthn.create', challenge: options.challenge, origin, crossOrigin: false }),
      );
      const attestation = cbor(
        new Map<string, unknown>([
          ['fmt', 'none'],
          ['attStmt', new Map()],
          ['authData', authData],
        ]),
      );
      return {
        id: b64url(credId),
        rawId: b64url(credId),
        type: 'public-key',
        authenticatorAttachment: 'platform',
        clientExtensionResults: {},
        response: {
          clientDataJSON: b64url(clientData),
          attestationObject: b64url(attestation),
          transports: ['internal'],
        },
      };
    },
    assert(options, origin) {
      const rpId = typeof options.rpId === 'string' ? options.rpId : new URL(origin).hostname;
      const authData = Buffer.concat([rpHash(rpId), Buffer.from([0x05]), count()]);
      const clientData = Buffer.from(
        JSON.stringify({ type: 'webauthn.get', challenge: options.challenge, origin, crossOrigin: false }),
      );
      const signature = sign(
        'sha256',
        Buffer.concat([authData, createHash('sha256').update(clientData).digest()]),
        privateKey,
      );
      return {
        id: b64url(credId),
        rawId: b64url(credId),
        type: 'public-key',
        authenticatorAttachment: 'platform',
        clientExtensionResults: {},
        response: {
          clientDataJSON: b64url(clientData),
          authenticatorData: b64url(authData),
          signature: b64url(signature),
        },
      };
    },
  };
}
