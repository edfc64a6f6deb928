import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { rotateSecretBody } from './customer-writes.ts';
import { MESSAGES } from './messages.ts';
import { applicationSecurity, siteQuery } from './site-settings.ts';
import {
  decimalInteger,
  EMAIL_PATTERN,
  email,
  GENERATED_PASSWORD_PATTERN,
  generatePassword,
  isStrongPassword,
  isUrlLike,
  isValidEmail,
  loginEmail,
  phoneError,
  phoneNumber,
  requiredText,
  setEquals,
  strongPassword,
  urlLike,
  WHOLE_NUMBER_MESSAGE,
} from './validation.ts';

/** Spec section 5, copied verbatim (note the double space after the comma). */
const SPEC_PASSWORD_RULE =
  'Password field must be minimum 6 characters,  at least 1 lowercase letter, at least 1 uppercase letter, 1 symbol and 1 digit.';

/** The messages of a failed parse, in order; [] when the value passes. */
function messagesOf(schema: z.ZodType, value: unknown): string[] {
  const result = schema.safeParse(value);
  return result.success ? [] : result.error.issues.map((i) => i.message);
}

const VALID_EMAILS = [
  'local@domain.tld',
  'user@example.com',
  'first.last@example.com',
  'user@sub.domain.example.com',
  'user+tag@example.com',
  'user+tag+more@example.co.uk',
  'USER@EXAMPLE.COM',
  'user_name-1@my-domain.io',
  '1234@example.org',
  '"quoted local"@example.com',
  '"john..doe"@example.com',
  'user@[192.168.0.1]',
  'user@[1.2.3.4]',
  'a@bc.de',
];

const INVALID_EMAILS: ReadonlyArray<readonly [string, string]> = [
  ['', 'empty'],
  ['plainaddress', 'missing @'],
  ['user.example.com', 'missing @ with dots'],
  ['@example.com', 'empty local part'],
  ['user@', 'empty domain'],
  ['a@b.c', 'last label with fewer than 2 letters'],
  ['user@example.c', 'one-letter TLD'],
  ['user@example.123', 'numeric TLD'],
  ['user@example.c1', 'TLD with a digit'],
  ['user@localhost', 'undotted domain'],
  ['a@1.2.3.4', 'unbracketed IPv4 (last label is not letters)'],
  ['user@[192.168.0]', 'bracketed address with 3 octets'],
  ['user@[192.168.0.1', 'unclosed bracket'],
  ['user@[1234.1.1.1]', 'bracketed octet of 4 digits'],
  ['us er@example.com', 'space in local part'],
  ['user@exa mple.com', 'space in domain'],
  [' user@example.com', 'leading space (raw predicate does not trim)'],
  ['user@example.com ', 'trailing space (raw predicate does not trim)'],
  ['user..name@example.com', 'double dot in local part'],
  ['.user@example.com', 'leading dot in local part'],
  ['user.@example.com', 'trailing dot in local part'],
  ['user@example..com', 'double dot in domain'],
  ['user@.example.com', 'leading dot in domain'],
  ['user@example.com.', 'trailing dot in domain'],
  ['user@@example.com', 'double @'],
  ['a@b@example.com', 'two @ signs'],
  ['user@exam_ple.com', 'underscore in domain'],
  ['us,er@example.com', 'comma in local part'],
  ['us(er)@example.com', 'parentheses in local part'],
  ['<user>@example.com', 'angle brackets in local part'],
  ['user@example.com\n', 'trailing newline'],
];

describe('isValidEmail', () => {
  it.each(VALID_EMAILS)('accepts %s', (value) => {
    expect(isValidEmail(value)).toBe(true);
  });

  it.each(INVALID_EMAILS)('rejects %j (%s)', (value) => {
    expect(isValidEmail(value)).toBe(false);
  });

  it('is the EMAIL_PATTERN test', () => {
    for (const value of [...VALID_EMAILS, ...INVALID_EMAILS.map(([v]) => v)]) {
      expect(isValidEmail(value)).toBe(EMAIL_PATTERN.test(value));
    }
  });
});

describe('email schema (forms other than sign-in)', () => {
  it("says only 'Email is required.' (not also invalid) for empty or whitespace-only values", () => {
    expect(messagesOf(email, '')).toEqual([MESSAGES.emailRequired]);
    expect(messagesOf(email, '   ')).toEqual(['Email is required.']);
    expect(messagesOf(email, '\t\n')).toEqual(['Email is required.']);
  });

  it("says 'Email is required.' for a missing value", () => {
    expect(messagesOf(email, undefined)).toEqual(['Email is required.']);
    expect(messagesOf(email, null)).toEqual(['Email is required.']);
  });

  it("says 'Email is invalid.' for an invalid address", () => {
    expect(messagesOf(email, 'a@b.c')).toEqual(['Email is invalid.']);
    expect(messagesOf(email, 'plainaddress')).toEqual([MESSAGES.emailInvalid]);
  });

  it('trims the value before checking and returns it trimmed', () => {
    expect(email.parse('  user@example.com  ')).toBe('user@example.com');
    expect(email.parse('\tuser@[192.168.0.1]\n')).toBe('user@[192.168.0.1]');
  });

  it('accepts every valid address', () => {
    for (const value of VALID_EMAILS) expect(email.parse(value)).toBe(value);
  });
});

describe('loginEmail schema (sign-in, forgot-password, reset)', () => {
  it("says 'Email is required' (no full stop) for empty, whitespace-only or missing values", () => {
    expect(messagesOf(loginEmail, '')).toEqual(['Email is required']);
    expect(messagesOf(loginEmail, '  ')).toEqual(['Email is required']);
    expect(messagesOf(loginEmail, undefined)).toEqual(['Email is required']);
  });

  it("says 'Please enter valid email.' for an invalid address", () => {
    expect(messagesOf(loginEmail, 'a@b.c')).toEqual(['Please enter valid email.']);
    expect(messagesOf(loginEmail, 'a@1.2.3.4')).toEqual([MESSAGES.emailInvalidLogin]);
  });

  it('trims the value', () => {
    expect(loginEmail.parse('  user+x@sub.example.com ')).toBe('user+x@sub.example.com');
  });
});

describe('requiredText', () => {
  it("says '{field} is required' for empty, whitespace-only, missing or non-string values", () => {
    const schema = requiredText('Password');
    expect(messagesOf(schema, '')).toEqual(['Password is required']);
    expect(messagesOf(schema, '   ')).toEqual(['Password is required']);
    expect(messagesOf(schema, undefined)).toEqual(['Password is required']);
    expect(messagesOf(schema, 42)).toEqual(['Password is required']);
  });

  it('trims the value', () => {
    expect(requiredText('Name').parse('  Ada  ')).toBe('Ada');
  });
});

describe('isStrongPassword', () => {
  it('accepts a password with every class at the minimum length 6', () => {
    expect(isStrongPassword('Abcd1!')).toBe(true);
  });

  it('rejects the same classes at length 5', () => {
    expect(isStrongPassword('Abc1!')).toBe(false);
  });

  it.each([
    ['no lowercase letter', 'ABCD1!'],
    ['no uppercase letter', 'abcd1!'],
    ['no digit', 'Abcde!'],
    ['no symbol', 'Abcde1'],
  ])('rejects a password with %s', (_why, value) => {
    expect(isStrongPassword(value)).toBe(false);
  });

  it.each([...'!@#$%^&*'])('counts %s as a symbol', (symbol) => {
    expect(isStrongPassword(`Abcd1${symbol}`)).toBe(true);
  });

  it.each([...'-_+=.,?~()[]{}<>/\\|;:\'"` '])('does not count %j as a symbol', (symbol) => {
    expect(isStrongPassword(`Abcd1${symbol}`)).toBe(false);
  });

  it('does not count non-ASCII letters as lowercase or uppercase', () => {
    expect(isStrongPassword('ÄBCD1!')).toBe(false);
    expect(isStrongPassword('äbcd1!')).toBe(false);
  });

  it('accepts long passwords and classes in any order', () => {
    expect(isStrongPassword('!1aA')).toBe(false);
    expect(isStrongPassword('!1aAzz')).toBe(true);
    expect(isStrongPassword(`${'x'.repeat(200)}Y9&`)).toBe(true);
  });

  it('accepts a generated password', () => {
    // Not guaranteed by the 8 random characters alone, so give it the missing letter classes.
    expect(isStrongPassword(`aA${generatePassword()}`)).toBe(true);
  });
});

describe('strongPassword schema', () => {
  const schema = strongPassword('Password');

  it('uses exactly the spec text for a weak password', () => {
    expect(MESSAGES.passwordRule).toBe(SPEC_PASSWORD_RULE);
    expect(messagesOf(schema, 'abc')).toEqual([SPEC_PASSWORD_RULE]);
    expect(messagesOf(schema, 'Abcdef')).toEqual([SPEC_PASSWORD_RULE]);
  });

  it("says only '{field} is required' for an empty value", () => {
    expect(messagesOf(schema, '')).toEqual(['Password is required']);
    expect(messagesOf(schema, '   ')).toEqual(['Password is required']);
    expect(messagesOf(strongPassword('New Password'), undefined)).toEqual(['New Password is required']);
  });

  it('trims before checking the length', () => {
    expect(messagesOf(schema, '  Abc1!  ')).toEqual([SPEC_PASSWORD_RULE]);
    expect(schema.parse('  Abcd1!  ')).toBe('Abcd1!');
  });
});

describe('phoneError', () => {
  it('accepts exactly 10 digits', () => {
    expect(phoneError('0123456789')).toBeUndefined();
  });

  it.each([
    ['9 digits', '012345678'],
    ['11 digits', '01234567890'],
    ['no digits', ''],
  ])("says 'Phone Number must be 10 characters.' for %s", (_why, value) => {
    expect(phoneError(value)).toBe('Phone Number must be 10 characters.');
  });

  it.each([
    ['letters', 'abcdefghij'],
    ['a dash', '012-345-678'],
    ['a plus sign', '+123456789'],
    ['a space', '01234 6789'],
    ['a decimal point', '01234.6789'],
    ['a minus sign', '-123456789'],
    ['an exponent', '1e10000000'],
    ['a short non-number', 'x'],
  ])("says 'Phone Number must be a number.' for %s", (_why, value) => {
    expect(phoneError(value)).toBe('Phone Number must be a number.');
  });

  it('checks the number before the length', () => {
    expect(phoneError('12a')).toBe(MESSAGES.phoneNotNumber);
  });
});

describe('phoneNumber schema', () => {
  it('accepts 10 digits and trims them', () => {
    expect(phoneNumber.parse(' 0123456789 ')).toBe('0123456789');
  });

  it('gives the phone messages', () => {
    expect(messagesOf(phoneNumber, '012345678')).toEqual([MESSAGES.phoneLength]);
    expect(messagesOf(phoneNumber, '01234567890')).toEqual([MESSAGES.phoneLength]);
    expect(messagesOf(phoneNumber, '01234x6789')).toEqual([MESSAGES.phoneNotNumber]);
  });
});

describe('isUrlLike', () => {
  it.each([
    'example.com',
    'www.example.com',
    'app.example.com',
    'https://app.example.com:8443/a/b?x=1',
    'http://a.b',
    'https://example.com',
    'http://example.com/',
    'example.com:8080',
    'example.com/path/to/page',
    'my-app.example-domain.com',
    'sub1.sub2.example.co.uk',
    'HTTPS://EXAMPLE.COM', // scheme and host are case-insensitive
    'Http://Shop.Example.com/Path',
    'example.com:65535',
    'example.com:1/',
  ])('accepts %s', (value) => {
    expect(isUrlLike(value)).toBe(true);
  });

  it.each([
    ['ftp://x.com', 'non-http scheme'],
    ['localhost', 'no dot'],
    ['http://localhost', 'no dot after the prefix'],
    ['exa mple.com', 'space in host'],
    ['http://', 'prefix only'],
    ['', 'empty'],
    ['.com', 'leading dot'],
    ['example.', 'trailing dot'],
    ['example..com', 'empty label'],
    ['-example.com', 'label starting with a dash'],
    ['example-.com', 'label ending with a dash'],
    ['https//example.com', 'malformed prefix'],
    ['example.com:', 'empty port'],
    ['example.com:123456', 'port longer than 5 digits'],
    ['example.com:65536', 'port above 65535'],
    ['example.com:99999/x', 'port above 65535, with a path'],
    ['example.com:0', 'port 0'],
    ['example.com:8a', 'port with a letter'],
    ['example.c-', 'last label ending with a dash'],
    [`${'a'.repeat(64)}.com`, 'label longer than 63'],
    [`example.com/${'a'.repeat(2048)}`, 'longer than 2048'],
    ['example.com/a b', 'space in path'],
  ])('rejects %j (%s)', (value) => {
    expect(isUrlLike(value)).toBe(false);
  });
});

describe('urlLike schema', () => {
  it('trims and accepts a URL-like text', () => {
    expect(urlLike.parse('  https://example.com/x ')).toBe('https://example.com/x');
  });

  it('rejects a text without a dotted host', () => {
    expect(urlLike.safeParse('localhost').success).toBe(false);
  });
});

describe('setEquals', () => {
  it('is true for the same members in a different order', () => {
    expect(setEquals(['a', 'b', 'c'], ['c', 'a', 'b'])).toBe(true);
    expect(setEquals([1, 2, 3], [3, 2, 1])).toBe(true);
  });

  it('is true for two empty lists', () => {
    expect(setEquals([], [])).toBe(true);
  });

  it('is false for lists of different lengths, even with the same members', () => {
    expect(setEquals(['a', 'b'], ['a', 'b', 'b'])).toBe(false);
    expect(setEquals(['a'], [])).toBe(false);
    expect(setEquals([], ['a'])).toBe(false);
  });

  it('is false when a member differs', () => {
    expect(setEquals(['a', 'b'], ['a', 'c'])).toBe(false);
    expect(setEquals(['Admin'], ['admin'])).toBe(false);
  });

  it('is true for [a,a,b] vs [a,b,b]: same length and same members (multiplicity is not compared)', () => {
    expect(setEquals(['a', 'a', 'b'], ['a', 'b', 'b'])).toBe(true);
    expect(setEquals(['a', 'b', 'b'], ['a', 'a', 'b'])).toBe(true);
  });

  it('is symmetric on the examples', () => {
    const cases: Array<[string[], string[]]> = [
      [
        ['a', 'b'],
        ['b', 'a'],
      ],
      [
        ['a', 'b'],
        ['a', 'c'],
      ],
      [['a'], ['a', 'a']],
      [
        ['x', 'y', 'z'],
        ['z', 'y', 'x'],
      ],
    ];
    for (const [a, b] of cases) expect(setEquals(a, b)).toBe(setEquals(b, a));
  });

  it('compares objects by identity', () => {
    const o = { id: 1 };
    expect(setEquals([o], [o])).toBe(true);
    expect(setEquals([o], [{ id: 1 }])).toBe(false);
  });
});

describe('generatePassword', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('is 8 letters or digits followed by 1@, over 1,000 runs', () => {
    for (let i = 0; i < 1000; i++) {
      const password = generatePassword();
      expect(password).toMatch(/^[A-Za-z0-9]{8}1@$/);
      expect(password).toMatch(GENERATED_PASSWORD_PATTERN);
    }
  });

  it('differs between runs', () => {
    const seen = new Set(Array.from({ length: 200 }, () => generatePassword()));
    expect(seen.size).toBe(200);
  });

  it('draws every one of the 62 letters and digits about equally often', () => {
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
    const counts = new Map<string, number>([...alphabet].map((c) => [c, 0]));
    const runs = 10_000; // 80,000 random characters
    for (let i = 0; i < runs; i++) {
      for (const c of generatePassword().slice(0, 8)) counts.set(c, (counts.get(c) ?? 0) + 1);
    }
    expect(counts.size).toBe(62);
    const expected = (runs * 8) / 62; // about 1,290; one standard deviation is about 36
    let chiSquare = 0;
    for (const [, count] of counts) {
      expect(Math.abs(count - expected)).toBeLessThan(expected * 0.4);
      chiSquare += (count - expected) ** 2 / expected;
    }
    // 61 degrees of freedom: mean 61, standard deviation 11; 200 is far beyond any chance result.
    expect(chiSquare).toBeLessThan(200);
  });

  it('draws from crypto.getRandomValues and never from Math.random', () => {
    const cryptoSpy = vi.spyOn(globalThis.crypto, 'getRandomValues');
    const mathSpy = vi.spyOn(Math, 'random');
    generatePassword();
    expect(cryptoSpy).toHaveBeenCalled();
    expect(mathSpy).not.toHaveBeenCalled();
  });

  it('rejects bytes 248-255 so that each character stays equally likely', () => {
    const batches = [
      [248, 249, 250, 251, 252, 253, 254, 255, 248, 249, 250, 251, 252, 253, 254, 255],
      [248, 0, 255, 61, 62, 123, 124, 247, 26, 52, 250, 1, 2, 3, 4, 5],
    ];
    let call = 0;
    vi.spyOn(globalThis.crypto, 'getRandomValues').mockImplementation(((array: Uint8Array) => {
      array.set(batches[call++] ?? []);
      return array;
    }) as typeof globalThis.crypto.getRandomValues);
    // 0 -> A, 61 -> 9, 62 -> A, 123 -> 9, 124 -> A, 247 -> 9, 26 -> a, 52 -> 0; the 248+ bytes are skipped.
    expect(generatePassword()).toBe('A9A9A9a01@');
    expect(call).toBe(2);
  });
});

describe('decimal integers', () => {
  const appId = siteQuery.shape.appId;
  const grace = rotateSecretBody.shape.GraceMinutes;

  it('reads decimal digits, as text (a query) or a number (a body)', () => {
    expect(appId.parse('426')).toBe(426);
    expect(appId.parse(426)).toBe(426);
    expect(appId.parse('007')).toBe(7);
    expect(grace.parse('0')).toBe(0);
  });

  it('refuses every other spelling of a number: hex, binary, octal, exponent, spaces, fraction, empty', () => {
    for (const v of [
      '0x1aa',
      '0X1AA',
      '0b1',
      '0o7',
      '1e3',
      ' 12',
      '12 ',
      '12.0',
      '+12',
      '',
      'Infinity',
      '1_000',
      true,
    ])
      expect(appId.safeParse(v).success, String(v)).toBe(false);
  });

  it('keeps the schema rules and messages: a minus only where negatives are allowed', () => {
    expect(messagesOf(appId, '-5')).toEqual(['appId must be a number.']);
    expect(messagesOf(grace, '0x10')).toEqual([messagesOf(grace, 'x')[0]]);
    expect(decimalInteger(z.number().int()).parse('-12')).toBe(-12);
    expect(decimalInteger(z.number().int()).safeParse('--12').success).toBe(false);
  });

  it('says what a cleared or misspelt field needs, unless the schema has its own type message', () => {
    const minLength = applicationSecurity.shape.PasswordMinLength;
    for (const v of ['', 'abc', '0x10', true, null])
      expect(messagesOf(minLength, v)).toEqual([WHOLE_NUMBER_MESSAGE]);
    expect(messagesOf(minLength, '3')).toEqual(['At least 6 characters.']);
    expect(messagesOf(decimalInteger(z.number({ error: 'own' }).int()), '')).toEqual(['own']);
  });

  it('is how the contract reads every integer (no z.coerce.number, which reads 0x1aa as 426)', () => {
    const dir = path.dirname(fileURLToPath(import.meta.url));
    const coercing = fs
      .readdirSync(dir)
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
      .filter((f) => {
        const code = fs.readFileSync(path.join(dir, f), 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
        return /z\s*\.coerce\s*\.number/.test(code);
      });
    expect(coercing).toEqual([]);
  });
});
