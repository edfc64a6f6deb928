import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { PLACEHOLDER_LINKS, setBranding } from '../../lib/footer-links.ts';
import { I18nProvider } from '../../lib/i18n.tsx';
import { Footer } from './footer.tsx';

afterEach(() => {
  setBranding({ productName: null, links: null });
});

const renderFooter = () =>
  render(
    <I18nProvider>
      <Footer />
    </I18nProvider>,
  );

describe('footer', () => {
  it('links Terms, Privacy and System Status to the provider’s addresses from the runtime configuration', () => {
    setBranding({
      productName: 'Acme Ops',
      links: {
        terms: 'https://acme.test/terms',
        privacy: 'https://acme.test/privacy',
        systemStatus: 'https://status.acme.test/',
      },
    });
    renderFooter();
    expect(screen.getByRole('link', { name: 'Terms' }).getAttribute('href')).toBe('https://acme.test/terms');
    expect(screen.getByRole('link', { name: 'Privacy' }).getAttribute('href')).toBe(
      'https://acme.test/privacy',
    );
    expect(screen.getByRole('link', { name: 'System Status' }).getAttribute('href')).toBe(
      'https://status.acme.test/',
    );
    expect(screen.getByText(/Acme Ops/)).toBeTruthy();
  });

  it('keeps the placeholders until the provider configures them', () => {
    renderFooter();
    expect(screen.getByRole('link', { name: 'Terms' }).getAttribute('href')).toBe(PLACEHOLDER_LINKS.terms);
    expect(screen.getByText(/Super Admin Console/)).toBeTruthy();
  });
});
