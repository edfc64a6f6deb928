import os from 'node:os';
import { type Algorithm, hash, verify } from '@node-rs/argon2';
import { Semaphore } from './semaphore.ts';

/**
 * argon2id with OWASP's minimum (19 MiB memory, 2 passes, 1 lane), in PHC strings as before.
 * @node-rs/argon2 ships prebuilt binaries (no compiler at install) and hashes on libuv's thread
 * pool, so the event loop keeps serving while a hash runs; it verifies the hashes the earlier
 * `argon2` addon wrote (password-hash.test.ts), so no stored password needs resetting.
 */
const ARGON2_ALGORITHM_ID = 2 as Algorithm;
const OPTIONS = { algorithm: ARGON2_ALGORITHM_ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/** @node-rs/argon2's `Algorithm` values (a const enum, which this build may not read at run time). */
export const ARGON2_ALGORITHM = { Argon2i: 1 as Algorithm, Argon2id: ARGON2_ALGORITHM_ID } as const;

/**
 * Hashes running at once (HASH_CONCURRENCY, default: the cores). Each takes a core for tens of
 * milliseconds and 19 MiB; a burst of sign-ins queues here instead of filling libuv's pool, which
 * DNS lookups and file reads share, and instead of multiplying the memory by the burst.
 */
let hashing = new Semaphore(os.availableParallelism());

/** Sets the number of hashes that may run at once (from the configuration, at start-up). */
export function setHashConcurrency(n: number): void {
  if (n !== hashing.limit) hashing = new Semaphore(n);
}

/** Runs other password hashing (a site's hashing preview) in the same slots as sign-ins. */
export const inHashingQueue = <T>(task: () => Promise<T>): Promise<T> => hashing.run(task);

let hashesStarted = 0;
/** Passwords hashed (new hashes, not verifications) since start: what a caller's request cost. */
export const passwordHashesStarted = (): number => hashesStarted;

export const hashPassword = (password: string): Promise<string> =>
  hashing.run(() => {
    hashesStarted++;
    return hash(password, OPTIONS);
  });

export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  try {
    return await hashing.run(() => verify(stored, password));
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;
/** Spends the time of one verification, so an unknown email answers as slowly as a known one. */
export async function verifyAgainstDummy(password: string): Promise<false> {
  dummyHash ??= hashPassword('dummy-password-for-timing');
  await verifyPassword(await dummyHash, password);
  return false;
}
