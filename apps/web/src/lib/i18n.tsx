import { LANGUAGES, type Language } from '@sac/contract/constants';
import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from 'react';
import { auth as enAuth } from '../i18n/en/auth.ts';
import { chrome as enChrome } from '../i18n/en/chrome.ts';
import { common as enCommon } from '../i18n/en/common.ts';
import { customers as enCustomers } from '../i18n/en/customers.ts';
import { dashboard as enDashboard } from '../i18n/en/dashboard.ts';
import { impersonation as enImpersonation } from '../i18n/en/impersonation.ts';
import { notifications as enNotifications } from '../i18n/en/notifications.ts';
import { siteSettings as enSiteSettings } from '../i18n/en/site-settings.ts';
import { team as enTeam } from '../i18n/en/team.ts';
import { auth as frAuth } from '../i18n/fr/auth.ts';
import { auth as siAuth } from '../i18n/si/auth.ts';
import { auth as spAuth } from '../i18n/sp/auth.ts';
import { auth as trAuth } from '../i18n/tr/auth.ts';
import { LANGUAGE_STORAGE_KEY } from './storage.ts';

/** English is complete; every other language is partial and falls back to English per phrase. */
const en = {
  auth: enAuth,
  chrome: enChrome,
  common: enCommon,
  customers: enCustomers,
  dashboard: enDashboard,
  impersonation: enImpersonation,
  notifications: enNotifications,
  siteSettings: enSiteSettings,
  team: enTeam,
};
export type Namespace = keyof typeof en;
type Catalog = { [N in Namespace]?: Partial<(typeof en)[N]> };

const catalogs: Record<Language, Catalog> = {
  en,
  sp: { auth: spAuth },
  fr: { auth: frAuth },
  si: { auth: siAuth },
  tr: { auth: trAuth },
};

/**
 * The BCP 47 tag of each console language, for lang attributes ('sp' is Spanish). Only the sign-in
 * screen is translated, so only it carries the chosen language; the document stays 'en'.
 */
export const HTML_LANG: Record<Language, string> = { en: 'en', sp: 'es', fr: 'fr', si: 'si', tr: 'tr' };

export const isLanguage = (v: unknown): v is Language => LANGUAGES.includes(v as Language);

export function storedLanguage(): Language {
  try {
    const v = globalThis.localStorage?.getItem(LANGUAGE_STORAGE_KEY);
    return isLanguage(v) ? v : 'en';
  } catch {
    return 'en';
  }
}

/** Replaces {name} placeholders. */
export function format(text: string, vars?: Record<string, string | number>): string {
  if (!vars) return text;
  return text.replace(/\{(\w+)\}/g, (m, k: string) => (k in vars ? String(vars[k]) : m));
}

export function translate<N extends Namespace>(
  language: Language,
  ns: N,
  key: keyof (typeof en)[N] & string,
  vars?: Record<string, string | number>,
): string {
  const local = catalogs[language][ns] as Record<string, string> | undefined;
  const fallback = en[ns] as Record<string, string>;
  return format(local?.[key] ?? fallback[key] ?? key, vars);
}

interface I18nValue {
  language: Language;
  setLanguage: (l: Language) => void;
}
const I18nContext = createContext<I18nValue>({ language: 'en', setLanguage: () => {} });

export function I18nProvider({ children, initial }: { children: ReactNode; initial?: Language }) {
  const [language, setLanguageState] = useState<Language>(() => initial ?? storedLanguage());
  const setLanguage = useCallback((l: Language) => {
    setLanguageState(l);
    try {
      globalThis.localStorage?.setItem(LANGUAGE_STORAGE_KEY, l);
    } catch {
      // Storage may be unavailable (private mode); the choice then lasts for this page only.
    }
  }, []);
  const value = useMemo(() => ({ language, setLanguage }), [language, setLanguage]);
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

export const useLanguage = (): I18nValue => useContext(I18nContext);

/** `const t = useT('auth'); t('email')` */
export function useT<N extends Namespace>(ns: N) {
  const { language } = useContext(I18nContext);
  return useCallback(
    (key: keyof (typeof en)[N] & string, vars?: Record<string, string | number>) =>
      translate(language, ns, key, vars),
    [language, ns],
  );
}
