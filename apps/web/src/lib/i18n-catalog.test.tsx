import { act, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

// The test setup loads every namespace; this test takes a fresh copy of the module, as the
// browser has it before the signed-in shell is opened.
describe('the sections’ phrases, loaded on demand', () => {
  it('are not there for the sign-in screen, and arrive with loadConsoleCatalog, re-rendering what shows them', async () => {
    vi.resetModules();
    const i18n = await import('./i18n.tsx');
    expect(i18n.translate('en', 'auth', 'email')).not.toBe('email');
    expect(i18n.translate('en', 'customers', 'section')).toBe('section');

    function Label() {
      const t = i18n.useT('customers');
      return <p>{t('section')}</p>;
    }
    render(
      <i18n.I18nProvider initial="en">
        <Label />
      </i18n.I18nProvider>,
    );
    expect(screen.getByText('section')).toBeTruthy();

    await act(() => i18n.loadConsoleCatalog());
    const text = i18n.translate('en', 'customers', 'section');
    expect(text).not.toBe('section');
    expect(screen.getByText(text)).toBeTruthy();
    // A module wrapped for React.lazy resolves only once the phrases are there.
    const mod = await i18n.withConsoleCatalog(Promise.resolve({ default: 1 }));
    expect(mod).toEqual({ default: 1 });
  });
});

describe('a language other than English, loaded on demand', () => {
  it('is English until its texts arrive, then re-renders what shows them; a contract text is found by its words', async () => {
    vi.resetModules();
    const i18n = await import('./i18n.tsx');
    const english = i18n.translate('en', 'auth', 'errorEmailRequired');
    expect(english).toBe('Email is required');
    expect(i18n.translate('tr', 'auth', 'errorEmailRequired')).toBe(english);

    function Label() {
      const t = i18n.useT('auth');
      return <p>{t('errorEmailRequired')}</p>;
    }
    render(
      <i18n.I18nProvider initial="tr">
        <Label />
      </i18n.I18nProvider>,
    );
    // The provider asks for the chosen language's chunk itself.
    expect(await screen.findByText('E-posta zorunludur')).toBeTruthy();
    expect(i18n.translateText('tr', 'auth', 'Email is required')).toBe('E-posta zorunludur');
    expect(i18n.translateText('en', 'auth', 'Email is required')).toBe('Email is required');
    expect(i18n.translateText('tr', 'auth', 'A text no phrase says.')).toBeUndefined();
  });
});
