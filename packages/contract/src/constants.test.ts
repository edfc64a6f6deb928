import { describe, expect, it } from 'vitest';
import {
  ACTIVITY_LOG_DEFAULT_CURSOR,
  ALERT_FADE_MS,
  API_VERSION,
  CAROUSEL_ADVANCE_MS,
  COLLAPSE_DELAY_MS,
  CUSTOM_OBJECT_SIZE_MAX_MB,
  CUSTOM_OBJECT_SIZE_MIN_MB,
  DATE_FORMAT,
  HEADERS,
  IMPERSONATION_DEFAULT_DURATION_MINUTES,
  IMPERSONATION_DURATION_MAX_MINUTES,
  IMPERSONATION_DURATION_MIN_MINUTES,
  IMPERSONATION_TABLE_PAGE_SIZE,
  LANGUAGES,
  LEGACY_STORAGE_KEYS,
  PAGINATION_MAX_PAGE_LINKS,
  PASSWORD_MIN_LENGTH,
  PHONE_NUMBER_LENGTH,
  SCROLL_LINK,
  SCROLLING_TABLE_MAX_HEIGHT_PX,
  SELECT_ALL_DEFAULT,
  SIDEBAR_TAB_CHECK_MS,
  STORAGE_KEYS,
  SUPERUSER_TABLE_PAGE_SIZE,
  TIME_PICKER,
  TOAST_AUTO_CLOSE_MS,
  TOAST_POSITION,
} from './constants.ts';

describe('business constants of spec section 9', () => {
  it.each([
    ['IMPERSONATION_DURATION_MIN_MINUTES', IMPERSONATION_DURATION_MIN_MINUTES, 1],
    ['IMPERSONATION_DURATION_MAX_MINUTES', IMPERSONATION_DURATION_MAX_MINUTES, 43200],
    ['IMPERSONATION_DEFAULT_DURATION_MINUTES', IMPERSONATION_DEFAULT_DURATION_MINUTES, 60],
    ['PASSWORD_MIN_LENGTH', PASSWORD_MIN_LENGTH, 6],
    ['PHONE_NUMBER_LENGTH', PHONE_NUMBER_LENGTH, 10],
    ['CUSTOM_OBJECT_SIZE_MIN_MB', CUSTOM_OBJECT_SIZE_MIN_MB, 1],
    ['CUSTOM_OBJECT_SIZE_MAX_MB', CUSTOM_OBJECT_SIZE_MAX_MB, 200],
    ['SUPERUSER_TABLE_PAGE_SIZE', SUPERUSER_TABLE_PAGE_SIZE, 10],
    ['IMPERSONATION_TABLE_PAGE_SIZE', IMPERSONATION_TABLE_PAGE_SIZE, 5],
    ['PAGINATION_MAX_PAGE_LINKS', PAGINATION_MAX_PAGE_LINKS, 10],
    ['ACTIVITY_LOG_DEFAULT_CURSOR', ACTIVITY_LOG_DEFAULT_CURSOR, 0],
    ['TOAST_AUTO_CLOSE_MS', TOAST_AUTO_CLOSE_MS, 5000],
    ['SIDEBAR_TAB_CHECK_MS', SIDEBAR_TAB_CHECK_MS, 100],
    ['CAROUSEL_ADVANCE_MS', CAROUSEL_ADVANCE_MS, 6000],
    ['COLLAPSE_DELAY_MS', COLLAPSE_DELAY_MS, 350],
    ['ALERT_FADE_MS', ALERT_FADE_MS, 150],
    ['SELECT_ALL_DEFAULT', SELECT_ALL_DEFAULT, 0],
    ['SCROLLING_TABLE_MAX_HEIGHT_PX', SCROLLING_TABLE_MAX_HEIGHT_PX, 200],
  ])('%s is %d', (_name, actual, expected) => {
    expect(actual).toBe(expected);
  });

  it("uses the date format 'MM-DD-YYYY'", () => {
    expect(DATE_FORMAT).toBe('MM-DD-YYYY');
  });

  it("is API version '23.0.0'", () => {
    expect(API_VERSION).toBe('23.0.0');
  });

  it('places toasts top-right', () => {
    expect(TOAST_POSITION).toBe('top-right');
  });

  it('configures the time picker: hours 1-12 or 1-24, minutes 0-59 step 5, 12-hour default, dial 270', () => {
    expect(TIME_PICKER).toEqual({
      hours12: { min: 1, max: 12 },
      hours24: { min: 1, max: 24 },
      minutes: { min: 0, max: 59, step: 5 },
      defaultMode: '12h',
      dialSize: 270,
    });
  });

  it('scrolls links with offset -70 over 500 ms', () => {
    expect(SCROLL_LINK).toEqual({ offset: -70, durationMs: 500 });
  });

  it('keeps the approval default inside the allowed duration range', () => {
    expect(IMPERSONATION_DEFAULT_DURATION_MINUTES).toBeGreaterThanOrEqual(IMPERSONATION_DURATION_MIN_MINUTES);
    expect(IMPERSONATION_DEFAULT_DURATION_MINUTES).toBeLessThanOrEqual(IMPERSONATION_DURATION_MAX_MINUTES);
  });
});

describe('storage keys of spec section 3', () => {
  it("names token, sign and site name 'lr-admin-token', 'lr-admin-sign', 'siteName'", () => {
    expect(STORAGE_KEYS.token).toBe('lr-admin-token');
    expect(STORAGE_KEYS.sign).toBe('lr-admin-sign');
    expect(STORAGE_KEYS.siteName).toBe('siteName');
  });

  it('uses distinct keys, none shared with the legacy keys', () => {
    const current = Object.values(STORAGE_KEYS);
    const legacy = Object.values(LEGACY_STORAGE_KEYS);
    expect(new Set(current).size).toBe(current.length);
    for (const key of legacy) expect(current).not.toContain(key);
  });
});

describe('request headers of spec section 7', () => {
  it('sends xtoken, xsign and the ajax marker X-Requested-With: XMLHttpRequest', () => {
    expect(HEADERS).toEqual({
      token: 'xtoken',
      sign: 'xsign',
      ajaxMarker: 'X-Requested-With',
      ajaxMarkerValue: 'XMLHttpRequest',
      etag: 'ETag',
      ifMatch: 'If-Match',
      exportRows: 'x-export-rows',
    });
  });
});

describe('languages of spec section 1', () => {
  it('lists en, sp, fr, si, tr', () => {
    expect([...LANGUAGES]).toEqual(['en', 'sp', 'fr', 'si', 'tr']);
  });
});
