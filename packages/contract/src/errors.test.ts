import { describe, expect, it } from 'vitest';
import { ERRORS, errorEnvelopeSchema, errorTextOf } from './errors.ts';
import { MESSAGES } from './messages.ts';

describe('ERRORS', () => {
  const entries = Object.entries(ERRORS);

  it('gives every error a unique code', () => {
    const codes = entries.map(([, e]) => e.code);
    expect(new Set(codes).size).toBe(codes.length);
  });

  it("maps 927 to 'Not Found, Please try again with some other information!'", () => {
    const e = entries.find(([, v]) => v.code === 927)?.[1];
    expect(e?.text).toBe('Not Found, Please try again with some other information!');
    expect(ERRORS.notFound).toEqual({
      code: 927,
      status: 404,
      text: 'Not Found, Please try again with some other information!',
    });
  });

  it('uses the spec codes only with their meanings (999, 981, 1037, 1090, 1091)', () => {
    const byCode = new Map(entries.map(([name, e]) => [e.code as number, name]));
    // 999: the custom object list is empty; 981: application-level security refuses the settings
    expect(byCode.get(999)).toBe('customObjectsEmpty');
    expect(byCode.get(981)).toBe('securityConflict');
    // 1037: no previous-password settings; 1090: no security-answer settings (both ignored by the console)
    expect(byCode.get(1037)).toBe('previousPasswordSettingsNotSet');
    expect(byCode.get(1090)).toBe('securityAnswerSettingsNotSet');
    // 1091: the spec's other security-question code, ignored as 1090 is
    expect(byCode.get(1091)).toBe('securityQuestionsNotUsed');
    // 930: a write from a stale version (If-Match), nothing written
    expect(ERRORS.conflict).toMatchObject({ code: 930, status: 412 });
  });

  it('uses the spec texts for invalid credentials and the generic error', () => {
    expect(ERRORS.invalidCredentials.text).toBe('Please use valid credentials.');
    expect(ERRORS.internal.text).toBe('An error has occurred. Please try again.');
  });

  it.each(entries)('%s has an integer code, a 4xx/5xx status and a non-empty text', (_name, e) => {
    expect(Number.isInteger(e.code)).toBe(true);
    expect(e.status).toBeGreaterThanOrEqual(400);
    expect(e.status).toBeLessThan(600);
    expect(e.text.trim().length).toBeGreaterThan(0);
  });

  it('gives the consent and site-access links codes of their own, apart from the reset link (905)', () => {
    expect(ERRORS.invalidResetToken.code).toBe(905);
    expect(ERRORS.consentLinkInvalid).toEqual({
      code: 975,
      status: 400,
      text: 'This consent link is invalid, has been used, or has expired.',
    });
    expect(ERRORS.siteAccessLinkInvalid).toEqual({
      code: 976,
      status: 400,
      text: 'This link is invalid or has expired.',
    });
  });

  it("gives the resend of an invitation its own refusal of one's own account, apart from the deletion's", () => {
    expect(ERRORS.ownAccount).toMatchObject({ code: 933, text: 'You cannot delete your own account.' });
    expect(ERRORS.ownInvitation).toEqual({
      code: 1197,
      status: 403,
      text: 'You cannot resend an invitation to your own account.',
    });
  });

  it('answers 401 for an expired session and for wrong credentials', () => {
    expect(ERRORS.unauthenticated.status).toBe(401);
    expect(ERRORS.invalidCredentials.status).toBe(401);
    expect(ERRORS.forbidden.status).toBe(403);
  });
});

describe('errorEnvelopeSchema', () => {
  it('accepts the envelope with and without FieldErrors', () => {
    const base = { ErrorCode: 927, Description: MESSAGES.searchNotFound, Message: 'm', RequestId: 'r' };
    expect(errorEnvelopeSchema.parse(base)).toEqual(base);
    const withFields = { ...base, FieldErrors: [{ Field: 'email', Message: MESSAGES.emailInvalid }] };
    expect(errorEnvelopeSchema.parse(withFields)).toEqual(withFields);
  });

  it('refuses a non-integer ErrorCode or a missing RequestId', () => {
    expect(
      errorEnvelopeSchema.safeParse({ ErrorCode: 9.5, Description: 'd', Message: 'm', RequestId: 'r' })
        .success,
    ).toBe(false);
    expect(errorEnvelopeSchema.safeParse({ ErrorCode: 900, Description: 'd', Message: 'm' }).success).toBe(
      false,
    );
  });
});

describe('errorTextOf', () => {
  it.each([
    ['Description', { ErrorCode: 1, Description: 'from Description' }, 'from Description'],
    ['description', { ErrorCode: 1, description: 'from description' }, 'from description'],
    ['message', { ErrorCode: 1, message: 'from message' }, 'from message'],
    ['ErrorMessage', { ErrorCode: 1, ErrorMessage: 'from ErrorMessage' }, 'from ErrorMessage'],
    ['Message (the envelope)', { ErrorCode: 1, Message: 'from Message' }, 'from Message'],
  ])('reads %s', (_key, body, text) => {
    expect(errorTextOf(body)).toBe(text);
  });

  it('accepts errorCode as well as ErrorCode', () => {
    expect(errorTextOf({ errorCode: 927, description: 'x' })).toBe('x');
  });

  it('treats an ErrorCode of 0 as present', () => {
    expect(errorTextOf({ ErrorCode: 0, Description: 'zero' })).toBe('zero');
  });

  it('prefers Description, then description, then message, then ErrorMessage', () => {
    const all = { ErrorCode: 1, Description: 'D', description: 'd', message: 'm', ErrorMessage: 'E' };
    expect(errorTextOf(all)).toBe('D');
    expect(errorTextOf({ ...all, Description: undefined })).toBe('d');
    expect(errorTextOf({ ...all, Description: undefined, description: undefined })).toBe('m');
    expect(errorTextOf({ ErrorCode: 1, ErrorMessage: 'E', description: 'd' })).toBe('d');
  });

  it('skips empty and non-string texts', () => {
    expect(errorTextOf({ ErrorCode: 1, Description: '', ErrorMessage: 'E' })).toBe('E');
    expect(errorTextOf({ ErrorCode: 1, Description: 42, message: 'm' })).toBe('m');
  });

  it('falls back to the generic error when a code has no text', () => {
    expect(errorTextOf({ ErrorCode: 950 })).toBe(MESSAGES.genericError);
    expect(errorTextOf({ errorCode: 950, Description: '' })).toBe('An error has occurred. Please try again.');
  });

  it('returns undefined without ErrorCode or errorCode', () => {
    expect(errorTextOf({ Description: 'not an error' })).toBeUndefined();
    expect(errorTextOf({ message: 'x', ErrorMessage: 'y' })).toBeUndefined();
    expect(errorTextOf({ xtoken: 't', xsign: 's' })).toBeUndefined();
    expect(errorTextOf({})).toBeUndefined();
  });

  it.each([undefined, null, '', 'text', 0, 927, true])('returns undefined for the non-object %j', (body) => {
    expect(errorTextOf(body)).toBeUndefined();
  });

  it('reads the text of every catalogued error envelope', () => {
    for (const e of Object.values(ERRORS)) {
      expect(errorTextOf({ ErrorCode: e.code, Description: e.text, Message: e.text, RequestId: 'r' })).toBe(
        e.text,
      );
    }
  });
});
