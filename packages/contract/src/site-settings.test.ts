import { describe, expect, it } from 'vitest';
import { MESSAGES } from './messages.ts';
import {
  applicationSecurity,
  createCustomObjectBody,
  DOMAIN_PATTERN,
  domainBody,
  verificationRecordName,
} from './site-settings.ts';

const first = (r: { success: boolean; error?: { issues: Array<{ message: string }> } }) =>
  r.error?.issues[0]?.message;

describe('custom object rules of spec section 5', () => {
  const ok = { Id: 'a_b-1', Name: 'N', SizeMB: '10', Schema: '{"type":"object"}' };
  it('accepts a good object and reads the size as a number', () => {
    expect(createCustomObjectBody.parse(ok).SizeMB).toBe(10);
    expect(createCustomObjectBody.parse({ ...ok, SizeMB: 200 }).SizeMB).toBe(200);
  });
  it.each([
    [{ Id: 'a b' }, MESSAGES.customObjectIdChars],
    [{ Id: 'a.b' }, MESSAGES.customObjectIdChars],
    [{ SizeMB: '1.5' }, MESSAGES.customObjectSizeNumeric],
    [{ SizeMB: 'x' }, MESSAGES.customObjectSizeNumeric],
    [{ SizeMB: '0' }, MESSAGES.customObjectSizeRange],
    [{ SizeMB: '201' }, MESSAGES.customObjectSizeRange],
    [{ Schema: '' }, MESSAGES.customObjectSchemaEmpty],
    [{ Schema: '[1,2]' }, MESSAGES.customObjectSchemaInvalid],
    [{ Schema: '{' }, MESSAGES.customObjectSchemaInvalid],
  ])('%j -> "%s"', (over, message) => {
    expect(first(createCustomObjectBody.safeParse({ ...ok, ...over }))).toBe(message);
  });
});

describe('custom domains', () => {
  it('uses the spec messages for an empty or missing domain', () => {
    expect(first(domainBody.safeParse({ domain: '  ' }))).toBe(MESSAGES.customDomainEmpty);
    expect(first(domainBody.safeParse({}))).toBe(MESSAGES.domainNameRequired);
  });
  it('takes host names only, lower-cased', () => {
    expect(domainBody.parse({ domain: 'Login.Example.COM' }).domain).toBe('login.example.com');
    for (const bad of ['example', 'http://a.com', 'a.com/x', 'a..com', '-a.com', 'a.c'])
      expect(DOMAIN_PATTERN.test(bad)).toBe(false);
    expect(verificationRecordName('login.example.com')).toBe('_sac-verification.login.example.com');
  });
});

describe('application level security', () => {
  const base = {
    SignInMode: 'Required',
    MfaMode: 'Off',
    PasswordMinLength: 8,
    MaxFailedLogins: 5,
    LockoutMinutes: 10,
    SessionTimeoutMinutes: 60,
    SecurityReportTime: '',
  };
  it('takes a time of day as HH:mm or none', () => {
    expect(applicationSecurity.safeParse({ ...base, SecurityReportTime: '23:55' }).success).toBe(true);
    expect(first(applicationSecurity.safeParse({ ...base, SecurityReportTime: '24:00' }))).toBe(
      'Please choose a time of day.',
    );
  });
  it('keeps the password minimum at the spec floor of 6', () => {
    expect(applicationSecurity.safeParse({ ...base, PasswordMinLength: 5 }).success).toBe(false);
  });
});
