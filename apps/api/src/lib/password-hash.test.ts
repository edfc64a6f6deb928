import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from './password-hash.ts';

describe('staff password hashes', () => {
  // Written by the `argon2` addon (0.45) this project used before @node-rs/argon2, with the same
  // parameters: stored passwords keep working after the switch, none needs resetting.
  const WRITTEN_BY_THE_EARLIER_ADDON =
    '$argon2id$v=19$m=19456,p=1,t=2$y4vSdY7LRL0DbbRjNVWPWQ$BNlS/b2BoASMbS3yQUxvZwi1+Dp/3PiKPyjXgrhcxJU';

  it('verifies a hash the earlier argon2 addon wrote', async () => {
    expect(await verifyPassword(WRITTEN_BY_THE_EARLIER_ADDON, 'Secret#123')).toBe(true);
    expect(await verifyPassword(WRITTEN_BY_THE_EARLIER_ADDON, 'Secret#124')).toBe(false);
  });

  it('writes argon2id PHC strings with OWASP parameters, salted anew each time', async () => {
    const a = await hashPassword('Secret#123');
    const b = await hashPassword('Secret#123');
    expect(a).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(a).not.toBe(b);
    expect(await verifyPassword(a, 'Secret#123')).toBe(true);
  });

  it('answers false, not an error, for a stored value that is not a hash', async () => {
    expect(await verifyPassword('not a hash', 'Secret#123')).toBe(false);
  });
});
