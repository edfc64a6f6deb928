import { LEGACY_STORAGE_KEYS, STORAGE_KEYS } from '@sac/contract/constants';
import { describe, expect, it } from 'vitest';
import {
  clearAuthStorage,
  hasToken,
  migrateLegacyStorage,
  readAuth,
  readLoginState,
  saveLogin,
} from './storage.ts';

describe('legacy storage migration', () => {
  it('moves lr-token and lr-sign to the admin keys and removes them', () => {
    localStorage.setItem(LEGACY_STORAGE_KEYS.token, 'tok');
    localStorage.setItem(LEGACY_STORAGE_KEYS.sign, 'sig');
    migrateLegacyStorage();
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBe('tok');
    expect(localStorage.getItem(STORAGE_KEYS.sign)).toBe('sig');
    expect(localStorage.getItem(LEGACY_STORAGE_KEYS.token)).toBeNull();
    expect(localStorage.getItem(LEGACY_STORAGE_KEYS.sign)).toBeNull();
  });

  it('keeps existing admin keys and still removes the legacy ones', () => {
    localStorage.setItem(STORAGE_KEYS.token, 'new');
    localStorage.setItem(LEGACY_STORAGE_KEYS.token, 'old');
    migrateLegacyStorage();
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBe('new');
    expect(localStorage.getItem(LEGACY_STORAGE_KEYS.token)).toBeNull();
  });

  it("does not copy a legacy 'undefined'", () => {
    localStorage.setItem(LEGACY_STORAGE_KEYS.sign, 'undefined');
    migrateLegacyStorage();
    expect(localStorage.getItem(STORAGE_KEYS.sign)).toBeNull();
    expect(localStorage.getItem(LEGACY_STORAGE_KEYS.sign)).toBeNull();
  });
});

describe("the 'undefined' rule (spec section 6)", () => {
  it('returns the pair when both are usable', () => {
    localStorage.setItem(STORAGE_KEYS.token, 't');
    localStorage.setItem(STORAGE_KEYS.sign, 's');
    expect(readAuth()).toEqual({ token: 't', sign: 's' });
    expect(hasToken()).toBe(true);
  });

  it.each([
    ['undefined', 's'],
    ['t', 'undefined'],
    ['t', null],
    [null, 's'],
  ])('drops both and clears storage for token=%s sign=%s', (token, sign) => {
    if (token !== null) localStorage.setItem(STORAGE_KEYS.token, token);
    if (sign !== null) localStorage.setItem(STORAGE_KEYS.sign, sign);
    localStorage.setItem(STORAGE_KEYS.loginState, '{"Email":"a@b.co"}');
    localStorage.setItem(STORAGE_KEYS.siteName, 'site');
    expect(readAuth()).toBeUndefined();
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBeNull();
    expect(localStorage.getItem(STORAGE_KEYS.sign)).toBeNull();
    expect(localStorage.getItem(STORAGE_KEYS.loginState)).toBeNull();
    expect(localStorage.getItem(STORAGE_KEYS.siteName)).toBeNull();
  });
});

describe('login state', () => {
  const answer = { xtoken: 't', xsign: 's', Email: 'a@b.co', Name: 'A', Role: ['Admin'] };

  it('is saved with the token and read back', () => {
    expect(saveLogin(answer)).toBe(true);
    expect(readLoginState()).toEqual({ Email: 'a@b.co', Name: 'A', Role: ['Admin'] });
  });

  it('is not saved without a token', () => {
    expect(saveLogin({ ...answer, xtoken: '' })).toBe(false);
    expect(localStorage.getItem(STORAGE_KEYS.loginState)).toBeNull();
    expect(readLoginState()).toBeUndefined();
  });

  it('is not read once the token is gone', () => {
    saveLogin(answer);
    localStorage.removeItem(STORAGE_KEYS.token);
    expect(readLoginState()).toBeUndefined();
  });

  it("clearAuthStorage also forgets the tab's impersonation", () => {
    saveLogin(answer);
    sessionStorage.setItem('lr-admin-impersonation', '{"xtoken":"it"}');
    clearAuthStorage();
    expect(sessionStorage.getItem('lr-admin-impersonation')).toBeNull();
  });

  it('clearAuthStorage keeps unrelated keys', () => {
    saveLogin(answer);
    localStorage.setItem('lr-admin-language', 'fr');
    clearAuthStorage();
    expect(hasToken()).toBe(false);
    expect(localStorage.getItem('lr-admin-language')).toBe('fr');
  });
});
