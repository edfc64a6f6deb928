import { storedChoice } from './stored-choice.ts';

/**
 * The colour theme: the system's (default), light or dark, chosen in the user menu and kept in
 * this browser. The chosen or system theme is set as data-theme on <html>, which the stylesheet
 * reads; with 'system', a change of the system's setting applies at once.
 */
export const THEMES = ['system', 'light', 'dark'] as const;
export type ThemeChoice = (typeof THEMES)[number];

const theme = storedChoice<ThemeChoice>('lr-admin-theme', THEMES, 'system');

const systemDark = (): boolean =>
  typeof window.matchMedia === 'function' && window.matchMedia('(prefers-color-scheme: dark)').matches;

function apply(choice: ThemeChoice): void {
  const dark = choice === 'dark' || (choice === 'system' && systemDark());
  document.documentElement.dataset.theme = dark ? 'dark' : 'light';
}

/** At start-up, before the first render: the kept choice, and the system's changes followed. */
export function startTheme(): void {
  apply(theme.read());
  window.matchMedia?.('(prefers-color-scheme: dark)').addEventListener?.('change', () => {
    if (theme.read() === 'system') apply('system');
  });
}

export function chooseTheme(choice: ThemeChoice): void {
  theme.write(choice);
  apply(choice);
}

/** The kept choice, updated when it changes. */
export const useThemeChoice = theme.useChoice;
