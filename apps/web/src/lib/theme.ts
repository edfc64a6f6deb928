import { useSyncExternalStore } from 'react';

/**
 * The colour theme: the system's (default), light or dark, chosen in the user menu and kept in
 * this browser. The chosen or system theme is set as data-theme on <html>, which the stylesheet
 * reads; with 'system', a change of the system's setting applies at once.
 */
export const THEMES = ['system', 'light', 'dark'] as const;
export type ThemeChoice = (typeof THEMES)[number];

const THEME_STORAGE_KEY = 'lr-admin-theme';
const listeners = new Set<() => void>();

function stored(): ThemeChoice {
  try {
    const v = localStorage.getItem(THEME_STORAGE_KEY);
    return THEMES.includes(v as ThemeChoice) ? (v as ThemeChoice) : 'system';
  } catch {
    return 'system';
  }
}

const systemDark = (): boolean =>
  typeof window.matchMedia === 'function' && window.matchMedia('(prefers-color-scheme: dark)').matches;

function apply(choice: ThemeChoice): void {
  const dark = choice === 'dark' || (choice === 'system' && systemDark());
  document.documentElement.dataset.theme = dark ? 'dark' : 'light';
}

/** At start-up, before the first render: the kept choice, and the system's changes followed. */
export function startTheme(): void {
  apply(stored());
  window.matchMedia?.('(prefers-color-scheme: dark)').addEventListener?.('change', () => {
    if (stored() === 'system') apply('system');
  });
}

export function chooseTheme(choice: ThemeChoice): void {
  try {
    if (choice === 'system') localStorage.removeItem(THEME_STORAGE_KEY);
    else localStorage.setItem(THEME_STORAGE_KEY, choice);
  } catch {
    // Without storage the choice holds until the page is left.
  }
  apply(choice);
  for (const l of listeners) l();
}

const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};

/** The kept choice, updated when it changes. */
export const useThemeChoice = (): ThemeChoice => useSyncExternalStore(subscribe, stored, stored);
