import { verify } from '@node-rs/argon2';
import { describe, expect, it } from 'vitest';
import { type HashSettings, hashWithSettings } from './password-hashing.ts';

const base: HashSettings = {
  EncryptionType: 'SHA-256',
  HashEncoding: 'hex',
  SaltEncoding: 'utf8',
  Salt: '',
  PerPasswordSalt: false,
  Iterations: 1,
  SaltAttach: 'None',
};
const hash = (over: Partial<HashSettings>, password = 'password', key?: string) =>
  hashWithSettings({ ...base, ...over }, password, key);

describe('hashWithSettings, against published test vectors', () => {
  it('digests', async () => {
    expect((await hash({ EncryptionType: 'MD5' })).stored).toBe('5f4dcc3b5aa765d61d8327deb882cf99');
    expect((await hash({ EncryptionType: 'SHA-1' })).stored).toBe('5baa61e4c9b93f3f0682250b6cf8331b7ee68fd8');
    expect((await hash({ EncryptionType: 'SHA-256' })).stored).toBe(
      '5e884898da28047151d0e56f8dc6292773603d0d6aabbdd62a11ef721d1542d8',
    );
  });

  it('PBKDF2-SHA256 (iterations apply) and HMAC-SHA256 (the key applies)', async () => {
    const p = await hash({ EncryptionType: 'PBKDF2-SHA256', Salt: 'salt', Iterations: 1 });
    expect(p.stored).toBe('120fb6cffcf8b32c43e7225256c4f837a86548c92ccc35480805987cb70be17b');
    const p2 = await hash({ EncryptionType: 'PBKDF2-SHA256', Salt: 'salt', Iterations: 2 });
    expect(p2.stored).toBe('ae4d0c95af6b46d32d0adff928f06dd02a303f8ef3c251dfd6e2d85a95474c43');
    const h = await hash(
      { EncryptionType: 'HMAC-SHA256' },
      'The quick brown fox jumps over the lazy dog',
      'key',
    );
    expect(h.stored).toBe('f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8');
  });

  it('attaches the salt as asked, and encodes as asked', async () => {
    const appended = await hash({ Salt: 'NaCl', SaltAttach: 'Append' });
    expect(appended.stored).toBe((await hash({}, 'passwordNaCl')).stored);
    const prepended = await hash({ Salt: 'NaCl', SaltAttach: 'Prepend' });
    expect(prepended.stored).toBe((await hash({}, 'NaClpassword')).stored);
    const b64 = await hash({ HashEncoding: 'base64' });
    expect(Buffer.from(b64.stored, 'base64').toString('hex')).toBe((await hash({})).stored);
    const hexSalt = await hash({ Salt: '4e61436c', SaltEncoding: 'hex', SaltAttach: 'Append' });
    expect(hexSalt.stored).toBe(appended.stored);
  });

  it('gives every password its own salt when asked', async () => {
    const a = await hash({ PerPasswordSalt: true, SaltAttach: 'Append' });
    const b = await hash({ PerPasswordSalt: true, SaltAttach: 'Append' });
    expect(a.stored).not.toBe(b.stored);
  });

  it('Argon2id and Argon2i produce PHC hashes that verify', async () => {
    for (const type of ['Argon2id', 'Argon2i'] as const) {
      const r = await hash({ EncryptionType: type, PerPasswordSalt: true });
      expect(r.stored).toMatch(type === 'Argon2id' ? /^\$argon2id\$/ : /^\$argon2i\$/);
      expect(await verify(r.stored, 'password')).toBe(true);
    }
  });
});
