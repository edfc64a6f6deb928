import type { passkeyAssertion, passkeyRegistration } from '@sac/contract/mfa';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import type { z } from 'zod';
import type { Config } from '../../config.ts';
import type { PasskeyRow } from './mfa.repo.ts';

/**
 * Passkey ceremonies through @simplewebauthn/server (docs/decisions.md): options out, responses
 * verified against the console's origins (CONSOLE_ORIGINS) and their host names as relying-party
 * ids. A passkey belongs to the host name it was made on (WebAuthn's rule).
 */

/**
 * The library, loaded with the first ceremony rather than at start-up: with its certificate
 * parsers it is about 250 modules, a sixth of what a restart loads, for a call few staff make.
 */
let library: Promise<typeof import('@simplewebauthn/server')> | undefined;
const webauthn = () => {
  library ??= import('@simplewebauthn/server');
  return library;
};

export type RegistrationJson = z.output<typeof passkeyRegistration>;
export type AssertionJson = z.output<typeof passkeyAssertion>;

const hostOf = (origin: string) => new URL(origin).hostname;

/** The relying-party id of a ceremony: the caller's console origin's host, else the first origin's. */
function rpIdFor(config: Config, origin: string | undefined): string {
  const mine = origin && config.consoleOrigins.includes(origin) ? origin : config.consoleOrigins[0];
  return hostOf(mine ?? 'http://localhost');
}

const expected = (config: Config) => ({
  expectedOrigin: config.consoleOrigins,
  expectedRPID: [...new Set(config.consoleOrigins.map(hostOf))],
});

/** Options as the contract's JSON object (an index signature over the library's named fields). */
type OptionsJson = { challenge: string } & Record<string, unknown>;

export async function passkeyRegistrationOptions(
  config: Config,
  origin: string | undefined,
  staff: { uid: string; email: string; full_name: string },
  existing: PasskeyRow[],
  rpName: string,
): Promise<OptionsJson> {
  const options = await (await webauthn()).generateRegistrationOptions({
    rpName,
    rpID: rpIdFor(config, origin),
    userName: staff.email,
    userDisplayName: staff.full_name || staff.email,
    userID: new TextEncoder().encode(staff.uid),
    attestationType: 'none',
    excludeCredentials: existing.map((p) => ({ id: p.credential_id, transports: p.transports })),
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
    timeout: 120_000,
  });
  return { ...options };
}

/** The new credential when the response answers the challenge from a console origin; else undefined. */
export async function verifyPasskeyRegistration(
  config: Config,
  response: RegistrationJson,
  challenge: string,
) {
  try {
    const r = await (await webauthn()).verifyRegistrationResponse({
      response: response as RegistrationResponseJSON,
      expectedChallenge: challenge,
      ...expected(config),
      requireUserVerification: false,
    });
    if (!r.verified) return undefined;
    const c = r.registrationInfo.credential;
    return { id: c.id, publicKey: c.publicKey, counter: c.counter, transports: c.transports ?? [] };
  } catch {
    return undefined;
  }
}

export async function passkeyAuthenticationOptions(
  config: Config,
  origin: string | undefined,
  passkeys: PasskeyRow[],
): Promise<OptionsJson> {
  const options = await (await webauthn()).generateAuthenticationOptions({
    rpID: rpIdFor(config, origin),
    allowCredentials: passkeys.map((p) => ({ id: p.credential_id, transports: p.transports })),
    userVerification: 'preferred',
    timeout: 120_000,
  });
  return { ...options };
}

/** The new signature counter when the assertion is good for this passkey; else undefined. */
export async function verifyPasskeyAssertion(
  config: Config,
  response: AssertionJson,
  challenge: string,
  passkey: PasskeyRow,
): Promise<{ newCounter: number } | undefined> {
  try {
    const r = await (await webauthn()).verifyAuthenticationResponse({
      response: response as AuthenticationResponseJSON,
      expectedChallenge: challenge,
      ...expected(config),
      credential: {
        id: passkey.credential_id,
        publicKey: new Uint8Array(passkey.public_key),
        counter: Number(passkey.sign_count),
        transports: passkey.transports,
      },
      requireUserVerification: false,
    });
    return r.verified ? { newCounter: r.authenticationInfo.newCounter } : undefined;
  } catch {
    return undefined;
  }
}
