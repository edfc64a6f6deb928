import { describe, expect, it } from 'vitest';
import {
  BUILT_IN_REASON_CODES,
  caseUrl,
  DEFAULT_REASON_SETTINGS,
  parseCaseUrlPattern,
  parseReasonCodes,
  REASON_MESSAGES,
  reasonLabel,
  reasonProblem,
} from './access-reasons.ts';

describe('IMPERSONATION_REASON_CODES', () => {
  it('is the built-in list when unset, each code labelled in words', () => {
    expect(parseReasonCodes(undefined)).toEqual(BUILT_IN_REASON_CODES);
    for (const c of BUILT_IN_REASON_CODES) expect(c.Label).toMatch(/^[A-Z][a-z]/);
    // break-glass reuses these
    expect(BUILT_IN_REASON_CODES.map((c) => c.Code)).toEqual(
      expect.arrayContaining(['production-incident', 'security-incident', 'legal-request']),
    );
  });

  it("adds the operator's codes after the built-in ones; a built-in code given again takes the new words", () => {
    const codes = parseReasonCodes(' gdpr-export:GDPR export , billing:Invoices ');
    expect(codes.at(-1)).toEqual({ Code: 'gdpr-export', Label: 'GDPR export' });
    expect(codes.find((c) => c.Code === 'billing')!.Label).toBe('Invoices');
    expect(codes.length).toBe(BUILT_IN_REASON_CODES.length + 1);
  });

  it('refuses at start what is not a code, a missing or overlong label, a code twice, too many codes', () => {
    expect(() => parseReasonCodes('Bad Code:Label')).toThrow(/'Bad Code' is not a code/);
    expect(() => parseReasonCodes('-x:Label')).toThrow(/not a code/);
    expect(() => parseReasonCodes(`${'a'.repeat(41)}:Label`)).toThrow(/at most 40 characters/);
    expect(() => parseReasonCodes('vip')).toThrow(/needs a label after a colon/);
    expect(() => parseReasonCodes(`vip:${'L'.repeat(61)}`)).toThrow(/needs a label/);
    expect(() => parseReasonCodes('vip:A,vip:B')).toThrow(/'vip' is given twice/);
    const many = Array.from({ length: 31 }, (_, i) => `c${i}:Code ${i}`).join(',');
    expect(() => parseReasonCodes(many)).toThrow(/at most 30 codes, got 31/);
  });
});

describe('IMPERSONATION_CASE_URL', () => {
  it('takes an https address with {case} once; http only on this machine', () => {
    expect(parseCaseUrlPattern(undefined)).toBeNull();
    expect(parseCaseUrlPattern('https://t.example.com/browse/{case}')).toBe(
      'https://t.example.com/browse/{case}',
    );
    expect(parseCaseUrlPattern('http://127.0.0.1:8080/t?id={case}')).toBe(
      'http://127.0.0.1:8080/t?id={case}',
    );
    expect(() => parseCaseUrlPattern('http://t.example.com/{case}')).toThrow(/must be an https address/);
    expect(() => parseCaseUrlPattern('javascript:alert({case})')).toThrow(/https/);
    expect(() => parseCaseUrlPattern('https://t.example.com/browse')).toThrow(/\{case\} exactly once/);
    expect(() => parseCaseUrlPattern('https://t.example.com/{case}/{case}')).toThrow(/exactly once/);
    expect(() => parseCaseUrlPattern('https://u:p@t.example.com/{case}')).toThrow(/user name or password/);
  });

  it('puts the case in URL-encoded, so a reference cannot change where the link goes', () => {
    const p = 'https://t.example.com/browse/{case}';
    expect(caseUrl(p, 'SUP-1')).toBe('https://t.example.com/browse/SUP-1');
    expect(caseUrl(p, '../../x?y=1#z')).toBe('https://t.example.com/browse/..%2F..%2Fx%3Fy%3D1%23z');
    expect(caseUrl(null, 'SUP-1')).toBeNull();
    expect(caseUrl(p, null)).toBeNull();
  });
});

describe('a request’s code and case', () => {
  const required = { ...DEFAULT_REASON_SETTINGS, caseRequired: true };
  it('needs a listed code, and a case when the setting says so', () => {
    expect(reasonProblem(DEFAULT_REASON_SETTINGS, { ReasonCode: 'billing', CaseReference: '' })).toBeNull();
    expect(reasonProblem(DEFAULT_REASON_SETTINGS, { ReasonCode: 'nope', CaseReference: '' })).toEqual({
      error: 'unknownReasonCode',
      field: 'ReasonCode',
      message: REASON_MESSAGES.unknownCode('nope'),
    });
    expect(reasonProblem(required, { ReasonCode: 'billing', CaseReference: ' ' })).toMatchObject({
      error: 'caseRequired',
      field: 'CaseReference',
    });
  });

  it('bounds the case: 100 printable characters, no line breaks or control characters', () => {
    const check = (c: string) => reasonProblem(required, { ReasonCode: 'billing', CaseReference: c })?.error;
    expect(check('x'.repeat(100))).toBeUndefined();
    expect(check('Ünïcode #42 / ticket')).toBeUndefined();
    expect(check('x'.repeat(101))).toBe('caseReferenceInvalid');
    expect(check('a\nb')).toBe('caseReferenceInvalid');
    expect(check('a\u202eb')).toBe('caseReferenceInvalid');
  });

  it('reads a code no longer listed as itself, and none as none', () => {
    expect(reasonLabel(DEFAULT_REASON_SETTINGS, 'billing')).toBe('Billing question');
    expect(reasonLabel(DEFAULT_REASON_SETTINGS, 'retired-code')).toBe('retired-code');
    expect(reasonLabel(DEFAULT_REASON_SETTINGS, null)).toBeNull();
  });
});
