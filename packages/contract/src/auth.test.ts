import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  changePasswordBody,
  changePasswordForm,
  forgotPasswordBody,
  loginBody,
  loginResponse,
  okResponse,
  resetPasswordBody,
  resetPasswordForm,
} from './auth.ts';
import { MESSAGES } from './messages.ts';

const STRONG = 'Abcd1!';
const OTHER_STRONG = 'Wxyz9#';

/** [path, message] of every issue of a failed parse; [] when the value passes. */
function issuesOf(schema: z.ZodType, value: unknown): Array<[string, string]> {
  const result = schema.safeParse(value);
  return result.success ? [] : result.error.issues.map((i) => [i.path.join('.'), i.message]);
}

describe('loginBody (POST /admin/login {email, password})', () => {
  it('accepts and trims email and password', () => {
    expect(loginBody.parse({ email: '  ada@example.com ', password: ' secret ' })).toEqual({
      email: 'ada@example.com',
      password: 'secret',
    });
  });

  it("says '{field} is required' for each missing field", () => {
    expect(issuesOf(loginBody, {})).toEqual([
      ['email', 'Email is required'],
      ['password', 'Password is required'],
    ]);
    expect(issuesOf(loginBody, { email: '  ', password: '' })).toEqual([
      ['email', 'Email is required'],
      ['password', 'Password is required'],
    ]);
  });

  it("says 'Please enter valid email.' for an invalid email", () => {
    expect(issuesOf(loginBody, { email: 'a@b.c', password: 'x' })).toEqual([
      ['email', 'Please enter valid email.'],
    ]);
  });

  it('does not apply the password rule on sign-in', () => {
    expect(loginBody.safeParse({ email: 'ada@example.com', password: 'weak' }).success).toBe(true);
  });

  it('drops unknown keys', () => {
    expect(loginBody.parse({ email: 'ada@example.com', password: 'p', extra: 1 })).toEqual({
      email: 'ada@example.com',
      password: 'p',
    });
  });
});

describe('loginResponse', () => {
  it('holds xtoken, xsign, Email, Name and the Role list', () => {
    const body = { xtoken: 't', xsign: 's', Email: 'ada@example.com', Name: 'Ada', Role: ['SuperAdmin'] };
    expect(loginResponse.parse(body)).toEqual(body);
    expect(loginResponse.safeParse({ ...body, Role: 'SuperAdmin' }).success).toBe(false);
    expect(loginResponse.safeParse({ xsign: 's', Email: 'e', Name: 'n', Role: [] }).success).toBe(false);
  });
});

describe('forgotPasswordBody (POST /admin/forgotpassword {email, url})', () => {
  it('accepts an email and an absolute url', () => {
    expect(
      forgotPasswordBody.parse({ email: ' ada@example.com ', url: ' https://console.example.com/login ' }),
    ).toEqual({ email: 'ada@example.com', url: 'https://console.example.com/login' });
  });

  it('uses the sign-in email messages', () => {
    expect(issuesOf(forgotPasswordBody, { email: '', url: 'https://x.example.com' })).toEqual([
      ['email', 'Email is required'],
    ]);
    expect(issuesOf(forgotPasswordBody, { email: 'nope', url: 'https://x.example.com' })).toEqual([
      ['email', MESSAGES.emailInvalidLogin],
    ]);
  });

  it('refuses a relative or missing url', () => {
    expect(forgotPasswordBody.safeParse({ email: 'ada@example.com', url: '/login' }).success).toBe(false);
    expect(forgotPasswordBody.safeParse({ email: 'ada@example.com' }).success).toBe(false);
  });
});

describe('resetPasswordBody (PUT /admin/resetpassword {password, resettoken})', () => {
  it('accepts a strong password and a token', () => {
    expect(resetPasswordBody.parse({ password: STRONG, resettoken: ' tok ' })).toEqual({
      password: STRONG,
      resettoken: 'tok',
    });
  });

  it.each([
    ['missing', {}],
    ['empty', { resettoken: '' }],
    ['whitespace', { resettoken: '   ' }],
    ['not a string', { resettoken: 5 }],
  ])("says 'Please enter correct Reset Password Url' when the token is %s", (_why, extra) => {
    expect(issuesOf(resetPasswordBody, { password: STRONG, ...extra })).toEqual([
      ['resettoken', 'Please enter correct Reset Password Url'],
    ]);
  });

  it('applies the password rule', () => {
    expect(issuesOf(resetPasswordBody, { password: 'abcdef', resettoken: 't' })).toEqual([
      ['password', MESSAGES.passwordRule],
    ]);
  });
});

describe('resetPasswordForm (password, confirmpassword)', () => {
  it('accepts matching strong passwords', () => {
    expect(resetPasswordForm.parse({ password: STRONG, confirmpassword: STRONG })).toEqual({
      password: STRONG,
      confirmpassword: STRONG,
    });
  });

  it("says 'Passwords do not match.' on confirmpassword", () => {
    expect(issuesOf(resetPasswordForm, { password: STRONG, confirmpassword: OTHER_STRONG })).toEqual([
      ['confirmpassword', 'Passwords do not match.'],
    ]);
  });

  it('compares the trimmed values', () => {
    expect(
      resetPasswordForm.safeParse({ password: ` ${STRONG}`, confirmpassword: `${STRONG} ` }).success,
    ).toBe(true);
  });

  it('is case-sensitive', () => {
    expect(issuesOf(resetPasswordForm, { password: STRONG, confirmpassword: STRONG.toLowerCase() })).toEqual([
      ['confirmpassword', MESSAGES.passwordsDoNotMatch],
    ]);
  });

  it("says 'Confirm Password is required' for an empty confirmation", () => {
    expect(issuesOf(resetPasswordForm, { password: STRONG, confirmpassword: '' })[0]).toEqual([
      'confirmpassword',
      'Confirm Password is required',
    ]);
  });

  it('applies the password rule to password', () => {
    expect(issuesOf(resetPasswordForm, { password: 'abc', confirmpassword: 'abc' })).toEqual([
      ['password', MESSAGES.passwordRule],
    ]);
  });
});

describe('changePasswordBody (PUT /admin/changepassword {oldpassword, newpassword})', () => {
  it('accepts any old password and a strong new one', () => {
    expect(changePasswordBody.parse({ oldpassword: 'old', newpassword: STRONG })).toEqual({
      oldpassword: 'old',
      newpassword: STRONG,
    });
  });

  it('requires both and applies the rule to the new password only', () => {
    expect(issuesOf(changePasswordBody, {})).toEqual([
      ['oldpassword', 'Old Password is required'],
      ['newpassword', 'New Password is required'],
    ]);
    expect(issuesOf(changePasswordBody, { oldpassword: 'old', newpassword: 'weakpass' })).toEqual([
      ['newpassword', MESSAGES.passwordRule],
    ]);
  });
});

describe('changePasswordForm (oldpassword, newpassword, confirmpassword)', () => {
  it('accepts a matching confirmation', () => {
    expect(
      changePasswordForm.safeParse({ oldpassword: 'old', newpassword: STRONG, confirmpassword: STRONG })
        .success,
    ).toBe(true);
  });

  it("says 'Passwords do not match.' on confirmpassword", () => {
    expect(
      issuesOf(changePasswordForm, {
        oldpassword: 'old',
        newpassword: STRONG,
        confirmpassword: OTHER_STRONG,
      }),
    ).toEqual([['confirmpassword', 'Passwords do not match.']]);
  });

  it('compares with the new password, not the old one', () => {
    expect(
      issuesOf(changePasswordForm, {
        oldpassword: STRONG,
        newpassword: OTHER_STRONG,
        confirmpassword: STRONG,
      }),
    ).toEqual([['confirmpassword', MESSAGES.passwordsDoNotMatch]]);
  });
});

describe('okResponse', () => {
  it('holds IsPosted and an optional Message', () => {
    expect(okResponse.parse({ IsPosted: true })).toEqual({ IsPosted: true });
    expect(okResponse.parse({ IsPosted: false, Message: 'm' })).toEqual({ IsPosted: false, Message: 'm' });
    expect(okResponse.safeParse({}).success).toBe(false);
  });
});
