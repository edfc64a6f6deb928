import { LANGUAGES } from '@sac/contract/constants';
import { describe, expect, it } from 'vitest';
import { pluralCategory, translate } from './i18n.tsx';

describe('plural forms through Intl.PluralRules', () => {
  it('chooses the singular phrase for one and the plural for other counts, writing the count grouped', () => {
    expect(translate('en', 'notifications', 'audienceSites', { count: 1 })).toBe('1 chosen site');
    expect(translate('en', 'notifications', 'audienceSites', { count: 2 })).toBe('2 chosen sites');
    expect(translate('en', 'notifications', 'audienceSites', { count: 0 })).toBe('0 chosen sites');
    expect(translate('en', 'notifications', 'confirmSendBody', { count: 1 })).toBe(
      'It goes to 1 owner address at once and cannot be called back.',
    );
    expect(translate('en', 'notifications', 'confirmSendBody', { count: 1234 })).toBe(
      'It goes to 1,234 owner addresses at once and cannot be called back.',
    );
    expect(translate('en', 'common', 'rows', { n: 1 })).toBe('1 row');
    expect(translate('en', 'common', 'rows', { n: 3 })).toBe('3 rows');
  });

  it("uses each console language's own rules (French counts 0 as one), and English rules for an English fallback", () => {
    expect(pluralCategory('fr', 0)).toBe('one');
    expect(pluralCategory('en', 0)).toBe('other');
    for (const l of LANGUAGES) expect(['one', 'other']).toContain(pluralCategory(l, 1));
    // French has no notices phrases: the English phrase comes with English's rule for 0.
    expect(translate('fr', 'notifications', 'audienceSites', { count: 0 })).toBe('0 chosen sites');
    expect(translate('fr', 'notifications', 'audienceSites', { count: 1 })).toBe('1 chosen site');
  });
});
