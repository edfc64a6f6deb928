/** Business constants and limits of spec section 9, one name each. */
export const API_VERSION = '23.0.0';

export const IMPERSONATION_DURATION_MIN_MINUTES = 1;
export const IMPERSONATION_DURATION_MAX_MINUTES = 43_200;
/** Default approval duration; the approve form prefills the requested duration instead. */
export const IMPERSONATION_DEFAULT_DURATION_MINUTES = 60;

export const PASSWORD_MIN_LENGTH = 6;
export const PHONE_NUMBER_LENGTH = 10;
export const CUSTOM_OBJECT_SIZE_MIN_MB = 1;
export const CUSTOM_OBJECT_SIZE_MAX_MB = 200;

export const SUPERUSER_TABLE_PAGE_SIZE = 10;
export const IMPERSONATION_TABLE_PAGE_SIZE = 5;
export const PAGINATION_MAX_PAGE_LINKS = 10;
export const DATE_FORMAT = 'MM-DD-YYYY';

export const ACTIVITY_LOG_DEFAULT_CURSOR = 0;

export const TOAST_AUTO_CLOSE_MS = 5000;
export const TOAST_POSITION = 'top-right';

export const TIME_PICKER = {
  hours12: { min: 1, max: 12 },
  hours24: { min: 1, max: 24 },
  minutes: { min: 0, max: 59, step: 5 },
  defaultMode: '12h',
  dialSize: 270,
} as const;

export const SCROLL_LINK = { offset: -70, durationMs: 500 } as const;
export const SIDEBAR_TAB_CHECK_MS = 100;
export const CAROUSEL_ADVANCE_MS = 6000;
export const COLLAPSE_DELAY_MS = 350;
export const ALERT_FADE_MS = 150;
export const SELECT_ALL_DEFAULT = 0;
export const SCROLLING_TABLE_MAX_HEIGHT_PX = 200;

/** Local storage keys of spec section 3. */
export const STORAGE_KEYS = {
  token: 'lr-admin-token',
  sign: 'lr-admin-sign',
  siteName: 'siteName',
  /** The saved login slice (Email, Name, Role); written only while a token exists. */
  loginState: 'lr-admin-login-state',
} as const;

/** Keys of earlier console versions, moved to STORAGE_KEYS at start-up (docs/decisions.md). */
export const LEGACY_STORAGE_KEYS = { token: 'lr-token', sign: 'lr-sign' } as const;

/** Request headers every call sends (spec section 7). */
/** A record's version as an entity tag (the ETag of a read, the If-Match of a write): "7". */
export const versionTag = (version: number | string): string => `"${version}"`;

export const HEADERS = {
  token: 'xtoken',
  sign: 'xsign',
  ajaxMarker: 'X-Requested-With',
  ajaxMarkerValue: 'XMLHttpRequest',
  /** A versioned record's read answers its version; a write names the version it was read at. */
  etag: 'ETag',
  ifMatch: 'If-Match',
  /** How many rows a streamed export will hold, answered before its body (the console's progress). */
  exportRows: 'x-export-rows',
} as const;

export const LANGUAGES = ['en', 'sp', 'fr', 'si', 'tr'] as const;
export type Language = (typeof LANGUAGES)[number];

export const DASHBOARD_TITLE = 'Super Admin Console';
