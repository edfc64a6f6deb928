import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderScreen, stubApi } from '../../../testing/api-stub.tsx';
import { GrantDetails } from './grant-details.tsx';
import { request, superAdmin } from './impersonation-fixtures.ts';
import { RequestDetails } from './request-details.tsx';

const show = (element: React.ReactNode) => {
  stubApi(superAdmin, {});
  return renderScreen('/x', [{ path: '/x', element }]);
};

const breakGlass = {
  ...request(5, {
    Request: {
      Priority: 'Critical',
      ReasonCode: 'security-incident',
      ReasonLabel: 'Security incident',
      CaseReference: 'SEC-9',
      CaseUrl: null,
    },
    Action: { Status: 'Approved', ExpiresAt: '2099-01-01T00:00:00.000Z', ActionTakenBy: 'boss@example.com' },
  }),
  BreakGlass: true,
};

describe('a break-glass grant where grants are shown', () => {
  it("is marked Emergency access in the request's details, with its reason and case", async () => {
    show(<RequestDetails request={breakGlass} />);
    expect((await screen.findByTestId('break-glass-mark')).textContent).toBe('Emergency access');
    expect(screen.getByText('Security incident')).toBeTruthy();
    expect(screen.getByText('SEC-9')).toBeTruthy();
  });

  it('is not marked on any other request', async () => {
    show(<RequestDetails request={request(6)} />);
    expect(await screen.findByText('Support ticket')).toBeTruthy();
    expect(screen.queryByTestId('break-glass-mark')).toBeNull();
  });

  it("is marked in the session's grant details, with its reason and case", async () => {
    const grant = {
      RequestId: 5,
      AppId: 11,
      AppName: 'analytical-engine',
      Roles: ['Developer'],
      Permissions: ['ViewData'],
      ExpiresAt: '2099-01-01T00:00:00.000Z',
      ReasonCode: null,
      ReasonLabel: null,
      CaseReference: null,
      CaseUrl: null,
    };
    show(
      <>
        <section aria-label="break-glass">
          <GrantDetails
            grant={{
              ...grant,
              BreakGlass: true,
              ReasonCode: 'security-incident',
              ReasonLabel: 'Security incident',
              CaseReference: 'SEC-9',
              CaseUrl: 'https://tickets.example.com/browse/SEC-9',
            }}
            layout="wide"
          />
        </section>
        <section aria-label="other">
          <GrantDetails grant={grant} layout="wide" />
        </section>
      </>,
    );
    const [marked, other] = await screen.findAllByRole('region');
    expect(marked!.textContent).toContain('Emergency access');
    // why it was opened: the reason, and the case linked to the tracker
    expect(marked!.textContent).toContain('ReasonSecurity incident');
    expect(within(marked!).getByRole('link', { name: 'Open case SEC-9 (new tab)' })).toBeTruthy();
    expect(other!.textContent).toContain('ReasonNone');
    expect(other!.textContent).toContain('Developer');
    expect(other!.textContent).not.toContain('Emergency access');
  });
});
