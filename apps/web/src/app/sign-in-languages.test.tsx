import { SESSION_ENDED_MESSAGES, SUCCESS_MESSAGES } from '@sac/contract/auth';
import { DASHBOARD_TITLE, type Language } from '@sac/contract/constants';
import { ERRORS } from '@sac/contract/errors';
import { MESSAGES } from '@sac/contract/messages';
import { MFA_MESSAGES } from '@sac/contract/mfa';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter } from 'react-router';
import { beforeAll, describe, expect, it } from 'vitest';
import { auth as en } from '../i18n/en/auth.ts';
import { chrome as enChrome } from '../i18n/en/chrome.ts';
import * as fr from '../i18n/fr/auth.ts';
import * as si from '../i18n/si/auth.ts';
import * as sp from '../i18n/sp/auth.ts';
import * as tr from '../i18n/tr/auth.ts';
import { loadLanguage } from '../lib/i18n.tsx';
import { errorAnswer, renderRouter, stubApi } from '../testing/api-stub.tsx';
import { buildRoutes } from './router.tsx';

/*
 * Each sign-in screen in each language, through the console's own routes (so the document title is
 * the one the browser shows): a field error, a toast (the API answers in English, as it does) and
 * the title must be in the chosen language; English keeps the spec's exact words.
 */
const PHRASES = {
  en: { ...en, ...enChrome },
  sp: { ...sp.auth, ...sp.chrome },
  fr: { ...fr.auth, ...fr.chrome },
  si: { ...si.auth, ...si.chrome },
  tr: { ...tr.auth, ...tr.chrome },
};

const TICKET = 'T'.repeat(43);
const secondStep = (Kind: 'verify' | 'enrol', Methods: string[]) => ({
  secondStep: {
    Ticket: TICKET,
    ExpiresAt: new Date(Date.now() + 300_000).toISOString(),
    Kind,
    Methods,
    Email: 'ada@example.com',
  },
});

function renderAt(language: Language, path: string, state?: unknown) {
  const [pathname, query] = path.split('?');
  const router = createMemoryRouter(buildRoutes(), {
    initialEntries: [{ pathname, search: query ? `?${query}` : '', state }],
  });
  return renderRouter(router, language);
}

const type = (label: string, value: string) =>
  fireEvent.change(screen.getByLabelText(label, { exact: true }), { target: { value } });

/** A toast's text, found in the toaster (not the form's own alerts). */
async function toastSays(p: { notifications: string; dismiss: string }, text: string) {
  const toaster = screen.getByRole('region', { name: p.notifications });
  const message = await waitFor(() => within(toaster).getByText(text));
  const toast = message.closest<HTMLElement>('[data-testid^="toast-"]')!;
  expect(within(toast).getByRole('button', { name: p.dismiss })).toBeTruthy();
}

const title = (...parts: string[]) => [...parts, DASHBOARD_TITLE].join(' | ');

describe('the sign-in screens in English keep the spec’s words', () => {
  it('field errors, the failed sign-in toast and the title', async () => {
    stubApi(undefined, { login: () => errorAnswer(401, 903, MESSAGES.invalidCredentials) });
    renderAt('en', '/login');
    fireEvent.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByText('Email is required')).toBeTruthy();
    expect(screen.getByText('Password is required')).toBeTruthy();
    await waitFor(() => expect(document.title).toBe('Login | Super Admin Console'));
    type('Email', 'ada@example.com');
    type('Password', 'wrong');
    fireEvent.click(screen.getByRole('button', { name: 'Login' }));
    await toastSays(PHRASES.en, 'Please use valid credentials.');
  });
});

describe.each(['sp', 'fr', 'si', 'tr'] as const)('the sign-in screens in %s', (language) => {
  const p = PHRASES[language];
  beforeAll(() => loadLanguage(language));

  it('phrases differ from English where the test reads them', () => {
    for (const key of [
      'errorEmailRequired',
      'errorInvalidCredentials',
      'loginTitle',
      'doneForgotPassword',
    ] as const)
      expect(p[key]).not.toBe(PHRASES.en[key]);
  });

  it('sign-in: field errors, the failed sign-in toast and the title', async () => {
    stubApi(undefined, { login: () => errorAnswer(401, 903, MESSAGES.invalidCredentials) });
    renderAt(language, '/login');
    expect(screen.getByRole('heading', { level: 1, name: p.signInHeading })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: p.login }));
    expect(await screen.findByText(p.errorEmailRequired)).toBeTruthy();
    expect(screen.getByText(p.errorPasswordRequired)).toBeTruthy();
    await waitFor(() => expect(document.title).toBe(title(p.loginTitle)));
    type(p.email, 'not-an-email');
    fireEvent.click(screen.getByRole('button', { name: p.login }));
    expect(await screen.findByText(p.errorEmailInvalid)).toBeTruthy();
    type(p.email, 'ada@example.com');
    type(p.password, 'wrong');
    fireEvent.click(screen.getByRole('button', { name: p.login }));
    await toastSays(p, p.errorInvalidCredentials);
  });

  it('sign-in: an account busy with other sign-ins (429, 984) is told so in the chosen language', async () => {
    stubApi(undefined, { login: () => errorAnswer(429, ERRORS.signInBusy.code, ERRORS.signInBusy.text) });
    renderAt(language, '/login');
    type(p.email, 'ada@example.com');
    type(p.password, 'Secret#123');
    fireEvent.click(screen.getByRole('button', { name: p.login }));
    await toastSays(p, p.errorSignInBusy);
    expect(p.errorSignInBusy).not.toBe(PHRASES.en.errorSignInBusy);
  });

  it('forgot password: a field error, an error toast found by its code, the success toast and the title', async () => {
    let answers = 0;
    stubApi(undefined, {
      // A limit in front of the API answers with its own words: the code still says what happened.
      forgotPassword: () =>
        answers++ === 0
          ? errorAnswer(429, ERRORS.tooManyRequests.code, 'Slow down.')
          : { body: { IsPosted: true, Message: SUCCESS_MESSAGES.forgotPassword } },
    });
    const router = renderAt(language, '/forgotpassword');
    await waitFor(() => expect(document.title).toBe(title(p.forgotHeading)));
    fireEvent.click(screen.getByRole('button', { name: p.submit }));
    expect(await screen.findByText(p.errorEmailRequired)).toBeTruthy();
    type(p.email, 'ada@example.com');
    fireEvent.click(screen.getByRole('button', { name: p.submit }));
    await toastSays(p, p.errorTooManyRequests);
    fireEvent.click(screen.getByRole('button', { name: p.submit }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    await toastSays(p, p.doneForgotPassword);
  });

  it('reset password: the password rule, the match, a refused link and the title', async () => {
    stubApi(undefined, { resetPassword: () => errorAnswer(400, 905, ERRORS.invalidResetToken.text) });
    renderAt(language, '/login?vtype=reset&vtoken=tok');
    expect(screen.getByRole('heading', { level: 1, name: p.resetHeading })).toBeTruthy();
    await waitFor(() => expect(document.title).toBe(title(p.resetHeading)));
    fireEvent.click(screen.getByRole('button', { name: p.resetPassword }));
    expect(await screen.findByText(p.errorPasswordRequired)).toBeTruthy();
    expect(screen.getByText(p.errorConfirmPasswordRequired)).toBeTruthy();
    type(p.password, 'weak');
    expect(await screen.findByText(p.errorPasswordRule)).toBeTruthy();
    type(p.password, 'Strong1!');
    type(p.confirmPassword, 'Other1!');
    expect(await screen.findByText(p.errorPasswordsDoNotMatch)).toBeTruthy();
    type(p.confirmPassword, 'Strong1!');
    fireEvent.click(screen.getByRole('button', { name: p.resetPassword }));
    await toastSays(p, p.errorInvalidResetToken);
  });

  it('reset without a token says the link is wrong, in the form and in a toast', async () => {
    renderAt(language, '/login?vtype=reset&vtoken=');
    expect(screen.getByRole('alert').textContent).toBe(p.errorResetUrl);
    type(p.password, 'Strong1!');
    type(p.confirmPassword, 'Strong1!');
    fireEvent.click(screen.getByRole('button', { name: p.resetPassword }));
    await toastSays(p, p.errorResetUrl);
  });

  it('invitation: "Set your password", its field errors, the success toast and the title', async () => {
    stubApi(undefined, {
      resetPassword: () => ({ body: { IsPosted: true, Message: SUCCESS_MESSAGES.invitationAccepted } }),
    });
    const router = renderAt(language, '/login?vtype=invite&vtoken=tok');
    expect(screen.getByRole('heading', { level: 1, name: p.inviteHeading })).toBeTruthy();
    expect(screen.getByText(p.inviteIntro)).toBeTruthy();
    await waitFor(() => expect(document.title).toBe(title(p.inviteHeading)));
    fireEvent.click(screen.getByRole('button', { name: p.setPassword }));
    expect(await screen.findByText(p.errorPasswordRequired)).toBeTruthy();
    type(p.password, 'Strong1!');
    type(p.confirmPassword, 'Strong1!');
    fireEvent.click(screen.getByRole('button', { name: p.setPassword }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    await toastSays(p, p.doneInvitationAccepted);
  });

  it('second step: the code format, a wrong code and the title', async () => {
    stubApi(undefined, { loginSecondStep: () => errorAnswer(401, 986, MFA_MESSAGES.wrongCode) });
    renderAt(language, '/login/second-step', secondStep('verify', ['totp', 'recovery']));
    expect(await screen.findByRole('heading', { level: 1, name: p.secondStepHeading })).toBeTruthy();
    await waitFor(() => expect(document.title).toBe(title(p.secondStepTitle, p.loginTitle)));
    fireEvent.click(screen.getByRole('button', { name: p.verify }));
    expect(await screen.findByText(p.codeFormat)).toBeTruthy();
    type(p.totpCode, '123456');
    fireEvent.click(screen.getByRole('button', { name: p.verify }));
    await toastSays(p, p.errorWrongCode);
    fireEvent.click(screen.getByRole('button', { name: p.useRecoveryCode }));
    expect(screen.getByLabelText(p.recoveryCode)).toBeTruthy();
  });

  it('set-up: the passkey name, an expired sign-in and the title', async () => {
    stubApi(undefined, { loginEnrolTotp: () => errorAnswer(401, 985, ERRORS.secondStepInvalid.text) });
    renderAt(language, '/login/enrol', secondStep('enrol', []));
    expect(await screen.findByRole('heading', { level: 1, name: p.enrolHeading })).toBeTruthy();
    await waitFor(() => expect(document.title).toBe(title(p.enrolTitle, p.loginTitle)));
    fireEvent.click(screen.getByRole('button', { name: p.addPasskey }));
    expect(await screen.findByText(p.errorPasskeyNameRequired)).toBeTruthy();
    type(p.passkeyName, 'x'.repeat(65));
    fireEvent.click(screen.getByRole('button', { name: p.addPasskey }));
    expect(await screen.findByText(p.errorPasskeyNameLength)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: p.useAuthenticatorApp }));
    await toastSays(p, p.errorSecondStepInvalid);
  });
});

describe('a sign-in screen reached because the session ended', () => {
  const viewer = { Uid: 'u-1', Email: 'ada@example.com', Role: ['Admin'], Permissions: [] };
  it.each([
    ['en', SESSION_ENDED_MESSAGES['ended-by-user'], en.sessionEndedByUser],
    ['fr', SESSION_ENDED_MESSAGES['ended-by-user'], fr.auth.sessionEndedByUser],
    ['en', ERRORS.unauthenticated.text, en.sessionExpired],
    ['tr', SESSION_ENDED_MESSAGES['ended-by-superadmin'], tr.auth.sessionEndedBySuperAdmin],
  ] as const)('in %s says why: %s', async (language, answer, shown) => {
    await loadLanguage(language);
    stubApi(viewer, { session: () => errorAnswer(401, 901, answer) });
    const router = renderAt(language, '/dashboard');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    const text = await screen.findByText(shown, { exact: false });
    expect(text.closest('[role="status"]')).toBeTruthy();
    expect(screen.getByText(PHRASES[language].sessionEndedTitle)).toBeTruthy();
  });

  it('says nothing on a sign-in screen opened directly', async () => {
    stubApi(undefined, {});
    renderAt('en', '/login');
    await screen.findByRole('heading', { level: 1, name: MESSAGES.signInHeading });
    expect(screen.queryByText(en.sessionEndedTitle)).toBeNull();
  });
});
