import { ERRORS } from '@sac/contract/errors';
import { IMPERSONATION_MESSAGES } from '@sac/contract/impersonation-api';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderScreen, stubApi } from '../../../testing/api-stub.tsx';
import ConsentPage from './consent-page.tsx';

const PATH = '/impersonation/consent';
const renderPage = (search: string) =>
  renderScreen(`${PATH}${search}`, [{ path: PATH, element: <ConsentPage /> }]);
const details = {
  Data: {
    RequestId: 12,
    AppName: 'analytical-engine',
    RequestedBy: 'admin@example.com',
    Description: 'You asked us to fix your login page.',
    ProxyRoles: ['Administrator', 'Analyst'],
    AdditionalPermissions: ['ManageSite'],
    Duration: 120,
    ReasonCode: 'security-incident',
    ReasonLabel: 'Security incident',
    CaseReference: 'SEC 9',
    CaseUrl: 'https://tickets.example.com/browse/SEC%209',
    Consent: 'pending' as const,
  },
};

describe('consent page', () => {
  it('shows who asks, why, what and for how long, and records Allow', async () => {
    const { calls } = stubApi(undefined, {
      consentDetails: () => ({ body: details }),
      consentAnswer: () => ({
        body: { IsPosted: true, Message: IMPERSONATION_MESSAGES.consentGranted },
      }),
    });
    renderPage('?token=abc%2B1');
    const heading = await screen.findByRole('heading', {
      level: 1,
      name: 'Allow support access to analytical-engine?',
    });
    await waitFor(() => expect(document.activeElement).toBe(heading));
    const text = document.body.textContent ?? '';
    for (const part of [
      'admin@example.com',
      'You asked us to fix your login page.',
      'Administrator',
      'ManageSite',
      '120 minutes after a SuperAdmin approves it',
      'ReasonSecurity incident',
      'Case or ticketSEC 9',
    ]) {
      expect(text).toContain(part);
    }
    const link = screen.getByRole('link', { name: 'Open case SEC 9 (new tab)' }) as HTMLAnchorElement;
    expect(link.href).toBe('https://tickets.example.com/browse/SEC%209');
    expect(link.rel).toBe('noopener noreferrer');
    expect(calls[0]!.url.searchParams.get('token')).toBe('abc+1');
    fireEvent.click(screen.getByRole('button', { name: 'Allow' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Your answer is recorded' })).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe(IMPERSONATION_MESSAGES.consentGranted);
    expect(calls.find((c) => c.id === 'consentAnswer')?.body).toEqual({
      token: 'abc+1',
      granted: true,
    });
    expect(screen.queryByRole('button', { name: 'Deny' })).toBeNull();
  });

  it('records Deny', async () => {
    const { calls } = stubApi(undefined, {
      consentDetails: () => ({ body: details }),
      consentAnswer: () => ({
        body: { IsPosted: true, Message: IMPERSONATION_MESSAGES.consentDenied },
      }),
    });
    renderPage('?token=t1');
    fireEvent.click(await screen.findByRole('button', { name: 'Deny' }));
    expect(await screen.findByText(IMPERSONATION_MESSAGES.consentDenied)).toBeTruthy();
    expect(calls.find((c) => c.id === 'consentAnswer')?.body).toEqual({
      token: 't1',
      granted: false,
    });
  });

  it("shows the server's error for an invalid or used link", async () => {
    stubApi(undefined, {
      consentDetails: () => ({
        status: 400,
        body: {
          ErrorCode: ERRORS.consentLinkInvalid.code,
          Description: IMPERSONATION_MESSAGES.consentLinkInvalid,
        },
      }),
    });
    renderPage('?token=used');
    expect((await screen.findByRole('alert')).textContent).toBe(IMPERSONATION_MESSAGES.consentLinkInvalid);
    expect(screen.getByRole('heading', { level: 1, name: 'This link does not work' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Allow' })).toBeNull();
  });

  it("shows the server's error when the answer is refused", async () => {
    stubApi(undefined, {
      consentDetails: () => ({ body: details }),
      consentAnswer: () => ({
        status: 409,
        body: { ErrorCode: 950, Description: 'The customer has already answered this request.' },
      }),
    });
    renderPage('?token=t2');
    fireEvent.click(await screen.findByRole('button', { name: 'Allow' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The customer has already answered this request.',
    );
  });

  it('says so when the link has no token', async () => {
    const { calls } = stubApi(undefined, {});
    renderPage('');
    expect((await screen.findByRole('alert')).textContent).toBe('The consent link is not complete.');
    expect(calls).toHaveLength(0);
  });
});
