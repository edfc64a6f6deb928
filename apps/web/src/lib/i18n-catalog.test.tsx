import { act, render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { describe, expect, it, vi } from 'vitest';

// The test setup loads every namespace; these tests take a fresh copy of the module, as the
// browser has it before the signed-in shell is opened.
describe('the sections’ phrases, loaded on demand', () => {
  it('are not there for the sign-in screen: a screen waits for them, never showing its keys', async () => {
    vi.resetModules();
    const i18n = await import('./i18n.tsx');
    expect(i18n.translate('en', 'auth', 'email')).not.toBe('email');
    expect(i18n.translate('en', 'customers', 'section')).toBe('section');

    function Label() {
      const t = i18n.useT('customers');
      return <p>{t('section')}</p>;
    }
    // Every text the page shows, in order, as it changes.
    const shown: string[] = [];
    const observer = new MutationObserver(() => shown.push(document.body.textContent ?? ''));
    observer.observe(document.body, { subtree: true, childList: true, characterData: true });
    await act(async () => {
      render(
        <i18n.I18nProvider initial="en">
          <Suspense fallback={<p>waiting</p>}>
            <Label />
          </Suspense>
        </i18n.I18nProvider>,
      );
    });
    observer.disconnect();
    expect(screen.getByText('Manage Customer')).toBeTruthy();
    expect(shown).toContain('waiting');
    expect(shown).not.toContain('section');
    expect(i18n.loadedNamespaces()).toContain('customers');
  });

  it('load a namespace with a route’s module, and only the namespaces asked for', async () => {
    vi.resetModules();
    const i18n = await import('./i18n.tsx');
    const eager = ['auth', 'chrome', 'common', 'dashboard', 'notifications'];
    expect(i18n.loadedNamespaces()).toEqual(eager);
    // A module wrapped for React.lazy resolves only once its phrases are there.
    const mod = await i18n.withPhrases(['team'], Promise.resolve({ default: 1 }));
    expect(mod).toEqual({ default: 1 });
    expect(i18n.loadedNamespaces()).toEqual([...eager, 'team'].sort());
    expect(i18n.translate('en', 'team', 'section')).toBe('Manage Superuser');

    expect(i18n.translate('en', 'webhooks', 'heading')).toBe('heading');
    await i18n.loadConsoleCatalog();
    // Every namespace of console.ts, each its own chunk.
    expect(i18n.translate('en', 'webhooks', 'heading')).toBe('Webhooks');
    expect(i18n.loadedNamespaces().length).toBe(eager.length + 11);
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
