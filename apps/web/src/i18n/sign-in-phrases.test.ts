import { LANGUAGES } from '@sac/contract/constants';
import { describe, expect, it } from 'vitest';
import { signIn } from './en/auth.ts';
import { signInChrome } from './en/chrome.ts';
import * as fr from './fr/auth.ts';
import * as si from './si/auth.ts';
import * as sp from './sp/auth.ts';
import * as tr from './tr/auth.ts';

/** The namespaces the sign-in screens show, with English's phrases: every language must have each. */
const ENGLISH = { auth: signIn, chrome: signInChrome } as const;
type Ns = keyof typeof ENGLISH;

const TRANSLATED: Record<string, Record<Ns, Record<string, unknown>>> = { sp, fr, si, tr };

/** Phrases that are rightly the same words as English in that language. */
const SAME_AS_ENGLISH: Record<string, readonly string[]> = { fr: ['chrome.notifications'] };

const placeholders = (text: string) => [...text.matchAll(/\{\w+\}/g)].map((m) => m[0]).sort();

describe('the sign-in screens’ phrases in every language', () => {
  it('are there for each language the switch offers', () => {
    expect(Object.keys(TRANSLATED).sort()).toEqual(LANGUAGES.filter((l) => l !== 'en').sort());
  });

  describe.each(Object.keys(TRANSLATED))('%s', (language) => {
    const phrases = TRANSLATED[language]!;
    const each = (check: (ns: Ns, key: string, english: string, text: unknown) => boolean) =>
      (Object.keys(ENGLISH) as Ns[]).flatMap((ns) =>
        Object.entries(ENGLISH[ns])
          .filter(([key, english]) => check(ns, key, english, phrases[ns]?.[key]))
          .map(([key]) => `${ns}.${key}`),
      );

    it('has every key English has', () => {
      const missing = each((_ns, _key, _english, text) => typeof text !== 'string' || text.trim() === '');
      expect(missing, `${language} misses ${missing.join(', ')}`).toEqual([]);
    });

    it('has no key English does not have (a typo, a renamed phrase)', () => {
      const extra = (Object.keys(ENGLISH) as Ns[]).flatMap((ns) =>
        Object.keys(phrases[ns] ?? {})
          .filter((key) => !(key in ENGLISH[ns]))
          .map((key) => `${ns}.${key}`),
      );
      expect(extra).toEqual([]);
    });

    it('says each phrase in its own words, with the same placeholders', () => {
      const english = each(
        (ns, key, en, text) => text === en && !SAME_AS_ENGLISH[language]?.includes(`${ns}.${key}`),
      );
      expect(english, `${language} leaves these in English`).toEqual([]);
      const broken = each(
        (_ns, _key, en, text) =>
          typeof text === 'string' && placeholders(text).join() !== placeholders(en).join(),
      );
      expect(broken).toEqual([]);
    });
  });
});
