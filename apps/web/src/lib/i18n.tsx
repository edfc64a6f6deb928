import { LANGUAGES, type Language } from '@sac/contract/constants';
import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useMemo,
  useState,
  useSyncExternalStore,
} from 'react';
import { auth as enAuth } from '../i18n/en/auth.ts';
import { chrome as enChrome } from '../i18n/en/chrome.ts';
import { common as enCommon } from '../i18n/en/common.ts';
import type { consoleNamespaces } from '../i18n/en/console.ts';
import { dashboard as enDashboard } from '../i18n/en/dashboard.ts';
import { notifications as enNotifications } from '../i18n/en/notifications.ts';
import { auth as frAuth } from '../i18n/fr/auth.ts';
import { auth as siAuth } from '../i18n/si/auth.ts';
import { auth as spAuth } from '../i18n/sp/auth.ts';
import { auth as trAuth } from '../i18n/tr/auth.ts';
import { LANGUAGE_STORAGE_KEY } from './storage.ts';

/**
 * English is complete; every other language is partial and falls back to English per phrase. The
 * sign-in screen's namespaces are here from the start; the sections' namespaces (i18n/en/console.ts)
 * arrive with loadConsoleCatalog(), which the router awaits before it shows the signed-in shell or
 * the owner's public pages (they import the contract's schemas, which the sign-in screen does not need).
 */
const eager = {
  auth: enAuth,
  chrome: enChrome,
  common: enCommon,
  dashboard: enDashboard,
  notifications: enNotifications,
};
type FullCatalog = typeof eager & typeof consoleNamespaces;
const en: typeof eager & Partial<typeof consoleNamespaces> = { ...eager };
export type Namespace = keyof FullCatalog;

let consoleCatalog: Promise<void> | undefined;
let catalogVersion = 0;
const catalogListeners = new Set<() => void>();

/** Loads the sections' English namespaces once; resolves when translate() knows them. */
export function loadConsoleCatalog(): Promise<void> {
  consoleCatalog ??= import('../i18n/en/console.ts').then(({ consoleNamespaces: more }) => {
    Object.assign(en, more);
    catalogVersion++;
    for (const l of catalogListeners) l();
  });
  return consoleCatalog;
}

/** Resolves to the module once both it and the sections' namespaces are loaded (for React.lazy). */
export function withConsoleCatalog<M>(module: Promise<M>): Promise<M> {
  return Promise.all([module, loadConsoleCatalog()]).then(([m]) => m);
}

const subscribeCatalog = (l: () => void) => {
  catalogListeners.add(l);
  return () => catalogListeners.delete(l);
};
const getCatalogVersion = () => catalogVersion;
type Catalog = { [N in Namespace]?: Partial<FullCatalog[N]> };

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

function storedLanguage(): Language {
  try {
    const v = globalThis.localStorage?.getItem(LANGUAGE_STORAGE_KEY);
    return isLanguage(v) ? v : 'en';
  } catch {
    return 'en';
  }
}

/** Replaces {name} placeholders. */
function format(text: string, vars?: Record<string, string | number>): string {
  if (!vars) return text;
  return text.replace(/\{(\w+)\}/g, (m, k: string) => (k in vars ? String(vars[k]) : m));
}

export function translate<N extends Namespace>(
  language: Language,
  ns: N,
  key: keyof FullCatalog[N] & string,
  vars?: Record<string, string | number>,
): string {
  const local = catalogs[language][ns] as Record<string, string> | undefined;
  const fallback = en[ns] as Record<string, string> | undefined;
  return format(local?.[key] ?? fallback?.[key] ?? key, vars);
}

interface I18nValue {
  language: Language;
  setLanguage: (l: Language) => void;
  /** Grows when more namespaces have loaded: memoized translations depend on it. */
  catalog: number;
}
const I18nContext = createContext<I18nValue>({ language: 'en', setLanguage: () => {}, catalog: 0 });

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
  const catalog = useSyncExternalStore(subscribeCatalog, getCatalogVersion, getCatalogVersion);
  const value = useMemo(() => ({ language, setLanguage, catalog }), [language, setLanguage, catalog]);
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

export const useLanguage = (): I18nValue => useContext(I18nContext);

/** `const t = useT('auth'); t('email')` */
export function useT<N extends Namespace>(ns: N) {
  const { language, catalog } = useContext(I18nContext);
  // A new function once more namespaces have loaded, so memoized texts are redone.
  // biome-ignore lint/correctness/useExhaustiveDependencies: catalog is the signal, not a value read
  return useCallback(
    (key: keyof FullCatalog[N] & string, vars?: Record<string, string | number>) =>
      translate(language, ns, key, vars),
    [language, ns, catalog],
  );
}
