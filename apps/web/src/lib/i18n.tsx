import { LANGUAGES, type Language } from '@sac/contract/constants';
import {
  createContext,
  type ReactNode,
  use,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
  useSyncExternalStore,
} from 'react';
import { auth as enAuth, type SignInPhrases } from '../i18n/en/auth.ts';
import { chrome as enChrome, type SignInChromePhrases } from '../i18n/en/chrome.ts';
import { common as enCommon } from '../i18n/en/common.ts';
import { type ConsoleNamespaces, consoleNamespaces } from '../i18n/en/console.ts';
import { dashboard as enDashboard } from '../i18n/en/dashboard.ts';
import { notifications as enNotifications } from '../i18n/en/notifications.ts';
import { LANGUAGE_STORAGE_KEY } from './storage.ts';

/**
 * English is complete; every other language has the sign-in screens' texts only (loadLanguage) and
 * falls back to English per phrase. English's sign-in namespaces are here from the start; every
 * other namespace (i18n/en/console.ts) is its own chunk, loaded with what shows it: the shell's
 * (SHELL_NAMESPACES) with the shell, a section's with its lazy route (`withPhrases`), so a first
 * view downloads the words it shows and no more. A component reading a namespace not yet loaded
 * suspends until it is (useT), so no screen shows its keys in place of its words.
 */
const eager = {
  auth: enAuth,
  chrome: enChrome,
  common: enCommon,
  dashboard: enDashboard,
  notifications: enNotifications,
};
type FullCatalog = typeof eager & ConsoleNamespaces;
const en: typeof eager & Partial<ConsoleNamespaces> = { ...eager };
export type Namespace = keyof FullCatalog;
/** A namespace loaded on demand. */
export type LazyNamespace = keyof ConsoleNamespaces;
/** A phrase key of namespace N. */
type PhraseKey<N extends Namespace> = keyof FullCatalog[N] & string;
/**
 * A phrase of a namespace, resolved in the current language where it is shown: the key is one the
 * namespace has, so a misspelt label fails to compile.
 */
export type PhraseRef = { [N in Namespace]: { ns: N; key: PhraseKey<N> } }[Namespace];

/**
 * The namespaces the signed-in shell loads with itself: the screens' names (its navigation,
 * sidebars, breadcrumb, title and command palette name every section's screens) and the bell's.
 * A section's namespace is not here: it comes with the section's route.
 */
export const SHELL_NAMESPACES = ['screens', 'staffNotifications'] as const satisfies readonly LazyNamespace[];
/** A phrase the shell always has: a route's label, which the shell shows for every section. */
export type ShellPhraseRef = Extract<
  PhraseRef,
  { ns: keyof typeof eager | (typeof SHELL_NAMESPACES)[number] }
>;

let catalogVersion = 0;
const catalogListeners = new Set<() => void>();
const catalogGrew = () => {
  catalogVersion++;
  for (const l of catalogListeners) l();
};

const namespaceLoads = new Map<LazyNamespace, Promise<void>>();

/**
 * Loads one namespace once (the same promise every time, as React's `use` needs). A failed
 * download (offline) is forgotten, so the next screen that needs it tries again.
 */
function loadNamespace(ns: LazyNamespace): Promise<void> {
  let load = namespaceLoads.get(ns);
  if (!load) {
    load = consoleNamespaces[ns]().then((phrases) => {
      Object.assign(en, { [ns]: phrases });
      catalogGrew();
    });
    load.catch(() => namespaceLoads.delete(ns));
    namespaceLoads.set(ns, load);
  }
  return load;
}

/** Loads these namespaces; resolves when translate() knows them all. */
export const loadPhrases = (namespaces: readonly LazyNamespace[]): Promise<void> =>
  Promise.all(namespaces.map(loadNamespace)).then(() => undefined);

/**
 * Resolves to the module once both it and the namespaces are loaded, fetched side by side: for
 * React.lazy, so a route's screen renders with its words.
 */
export function withPhrases<M>(namespaces: readonly LazyNamespace[], module: Promise<M>): Promise<M> {
  return Promise.all([module, loadPhrases(namespaces)]).then(([m]) => m);
}

/** Every on-demand namespace (the unit tests render screens without their routes). */
export const loadConsoleCatalog = (): Promise<void> =>
  loadPhrases(Object.keys(consoleNamespaces) as LazyNamespace[]);

/** The namespaces translate() knows now, sorted (for tests of what a view loads). */
export const loadedNamespaces = (): Namespace[] => (Object.keys(en) as Namespace[]).sort();

const subscribeCatalog = (l: () => void) => {
  catalogListeners.add(l);
  return () => catalogListeners.delete(l);
};
const getCatalogVersion = () => catalogVersion;
type Catalog = { [N in Namespace]?: Partial<FullCatalog[N]> };

const catalogs: Record<Language, Catalog> = { en, sp: {}, fr: {}, si: {}, tr: {} };

/**
 * The other languages' texts, each its own chunk: the sign-in screen's first view carries English
 * only, and a visitor downloads the one language they choose.
 */
const TRANSLATIONS: Record<
  Exclude<Language, 'en'>,
  () => Promise<{ auth: SignInPhrases; chrome: SignInChromePhrases }>
> = {
  sp: () => import('../i18n/sp/auth.ts'),
  fr: () => import('../i18n/fr/auth.ts'),
  si: () => import('../i18n/si/auth.ts'),
  tr: () => import('../i18n/tr/auth.ts'),
};
const languageLoads = new Map<Language, Promise<void>>();

/**
 * Loads a language's texts once; resolves when translate() knows them. A failed download (offline)
 * is forgotten, so the next choice of that language tries again; until then its texts are English.
 */
export function loadLanguage(language: Language): Promise<void> {
  if (language === 'en') return Promise.resolve();
  let load = languageLoads.get(language);
  if (!load) {
    load = TRANSLATIONS[language]().then(({ auth, chrome }) => {
      Object.assign(catalogs[language], { auth, chrome });
      catalogGrew();
    });
    load.catch(() => languageLoads.delete(language));
    languageLoads.set(language, load);
  }
  return load;
}

/** At start-up, before the first paint: the stored language's texts, so no English flashes first. */
export const loadStoredLanguage = (): Promise<void> => loadLanguage(storedLanguage()).catch(() => undefined);

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

const englishKeys = new WeakMap<object, Map<string, string>>();

/**
 * A text of the contract or the API that an English phrase of `ns` says word for word (a field
 * error, an error answer's Description), in `language`; undefined when no phrase says it.
 */
export function translateText(language: Language, ns: Namespace, text: string): string | undefined {
  const phrases = en[ns] as Record<string, string> | undefined;
  if (!phrases) return undefined;
  let byText = englishKeys.get(phrases);
  if (!byText) {
    byText = new Map();
    for (const [key, english] of Object.entries(phrases)) if (!byText.has(english)) byText.set(english, key);
    englishKeys.set(phrases, byText);
  }
  const key = byText.get(text);
  return key === undefined ? undefined : lookup(language, ns, key);
}

export function translate<N extends Namespace>(
  language: Language,
  ns: N,
  key: PhraseKey<N>,
  vars?: Record<string, string | number>,
): string {
  return lookup(language, ns, key, vars);
}

/** A phrase named by a route's label (or any PhraseRef) in `language`. */
export const translatePhrase = (language: Language, ref: PhraseRef): string =>
  lookup(language, ref.ns, ref.key);

const pluralRules = new Map<Language, Intl.PluralRules>();
/** The CLDR plural category of `count` in `language` ('one', 'few', 'many', 'other'…). */
export function pluralCategory(language: Language, count: number): Intl.LDMLPluralRule {
  let rules = pluralRules.get(language);
  if (!rules) {
    rules = new Intl.PluralRules(HTML_LANG[language]);
    pluralRules.set(language, rules);
  }
  return rules.select(count);
}

/**
 * A phrase with a number `count` (or, without one, `n`) reads in the plural form its language's rules choose: the key
 * suffixed with the category (`audienceSites_one`), else the key itself (its 'other' form). The
 * form is looked up in the catalog that has the phrase, with that catalog's language's rules, so a
 * phrase that falls back to English is English throughout. The count is written in that
 * language's digits grouping (1,234).
 */
function lookup(
  language: Language,
  ns: Namespace,
  key: string,
  vars?: Record<string, string | number>,
): string {
  const local = catalogs[language][ns] as Record<string, string> | undefined;
  const fallback = en[ns] as Record<string, string> | undefined;
  const [phrases, lang] = local?.[key] !== undefined ? [local, language] : [fallback, 'en' as Language];
  const countVar = typeof vars?.count === 'number' ? 'count' : typeof vars?.n === 'number' ? 'n' : undefined;
  if (countVar && phrases) {
    const count = vars?.[countVar] as number;
    const form = phrases[`${key}_${pluralCategory(lang, count)}`] ?? phrases[key];
    return format(form ?? key, { ...vars, [countVar]: count.toLocaleString(HTML_LANG[lang]) });
  }
  return format(phrases?.[key] ?? key, vars);
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
  useEffect(() => {
    // A failed download leaves English in place (translate falls back per phrase).
    loadLanguage(language).catch(() => undefined);
  }, [language]);
  const catalog = useSyncExternalStore(subscribeCatalog, getCatalogVersion, getCatalogVersion);
  const value = useMemo(() => ({ language, setLanguage, catalog }), [language, setLanguage, catalog]);
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

export const useLanguage = (): I18nValue => useContext(I18nContext);

/** `const t = useT('auth'); t('email')` */
export function useT<N extends Namespace>(ns: N) {
  const { language, catalog } = useContext(I18nContext);
  // Not loaded yet (a screen whose route did not ask for it): wait at the nearest Suspense
  // boundary rather than show keys. `use` may be called conditionally.
  if (!(ns in en)) use(loadNamespace(ns as LazyNamespace));
  // A new function once more namespaces have loaded, so memoized texts are redone.
  // biome-ignore lint/correctness/useExhaustiveDependencies: catalog is the signal, not a value read
  return useCallback(
    (key: PhraseKey<N>, vars?: Record<string, string | number>) => translate(language, ns, key, vars),
    [language, ns, catalog],
  );
}
