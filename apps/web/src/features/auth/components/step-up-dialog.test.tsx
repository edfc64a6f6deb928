import { STORAGE_KEYS } from '@sac/contract/constants';
import { ERRORS } from '@sac/contract/errors';
import { STEP_UP_MESSAGES } from '@sac/contract/step-up';
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, callApi } from '../../../lib/api-client.ts';
import { I18nProvider } from '../../../lib/i18n.tsx';
import { createQueryClient } from '../../../lib/query-client.ts';
import { StepUpDialog } from './step-up-dialog.tsx';

const stepUpNeeded = () =>
  Response.json(
    {
      ErrorCode: ERRORS.stepUpRequired.code,
      Description: ERRORS.stepUpRequired.text,
      Message: 'm',
      RequestId: 'r',
    },
    { status: 403 },
  );

/** The API as the dialog meets it: the first role change asks for a step-up, the one after goes ahead. */
function stubApi(methods: string[]) {
  const calls: Array<{ url: string; method: string; body: unknown }> = [];
  let steppedUp = false;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      const body = init.body ? JSON.parse(String(init.body)) : undefined;
      calls.push({ url, method: String(init.method), body });
      if (url.endsWith('/admin/step-up') && init.method === 'GET')
        return Response.json({ Methods: methods, WindowMinutes: 10, VerifiedUntil: '2026-01-01T00:00:00Z' });
      if (url.endsWith('/admin/step-up')) {
        if (body.Code === '000000')
          return Response.json(
            { ErrorCode: 986, Description: 'That code is not correct.', Message: 'm', RequestId: 'r' },
            { status: 401 },
          );
        steppedUp = true;
        return Response.json({ Message: STEP_UP_MESSAGES.done, VerifiedUntil: '2026-01-01T00:10:00Z' });
      }
      if (url.endsWith('/admin/team/roles'))
        return steppedUp ? Response.json({ IsPosted: true }) : stepUpNeeded();
      return Response.json({});
    }),
  );
  return calls;
}

beforeEach(() => {
  localStorage.setItem(STORAGE_KEYS.token, 't');
  localStorage.setItem(STORAGE_KEYS.sign, 's');
  render(
    <I18nProvider initial="en">
      <QueryClientProvider client={createQueryClient()}>
        <StepUpDialog />
      </QueryClientProvider>
    </I18nProvider>,
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

const changeRoles = () =>
  callApi('teamUpdateRoles', { body: { role: ['Admin'], uid: crypto.randomUUID(), unAssignRoles: [] } });

describe('the step-up dialog', () => {
  it('asks for a code when a call needs a recent sign-in, then makes the same call again', async () => {
    const calls = stubApi(['totp', 'recovery']);
    const done = changeRoles();
    const field = await screen.findByLabelText('Code from your authenticator app');
    expect(screen.getByRole('dialog', { name: 'Confirm it is you' })).toBeTruthy();
    fireEvent.change(field, { target: { value: '000000' } });
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    // a wrong code: said beside the field, the dialog stays
    expect(await screen.findByText('That code is not correct.')).toBeTruthy();
    fireEvent.change(field, { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    await expect(done).resolves.toEqual({ IsPosted: true });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.filter((c) => c.url.endsWith('/admin/team/roles'))).toHaveLength(2);
    expect(calls.find((c) => c.method === 'POST' && c.url.endsWith('/admin/step-up'))?.body).toEqual({
      Method: 'totp',
      Code: '000000',
    });
  });

  it('asks two calls that need it at once only once', async () => {
    const calls = stubApi(['password']);
    const both = Promise.all([changeRoles(), changeRoles()]);
    fireEvent.change(await screen.findByLabelText('Your password'), { target: { value: 'Secret1!' } });
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    await expect(both).resolves.toEqual([{ IsPosted: true }, { IsPosted: true }]);
    expect(calls.filter((c) => c.method === 'POST' && c.url.endsWith('/admin/step-up'))).toHaveLength(1);
  });

  it('cancelled, the call fails with "not done" and is not made again', async () => {
    const calls = stubApi(['totp']);
    const done = changeRoles().catch((e: unknown) => e);
    await screen.findByLabelText('Code from your authenticator app');
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    const error = (await done) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.message).toBe(STEP_UP_MESSAGES.cancelled);
    expect(calls.filter((c) => c.url.endsWith('/admin/team/roles'))).toHaveLength(1);
  });

  it('tells an account that signs in through single sign-on only to sign in again', async () => {
    const calls = stubApi(['sign-in']);
    const done = changeRoles().catch((e: unknown) => e);
    expect(await screen.findByText(/signs in through single sign-on only/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Sign in again' }).getAttribute('href')).toBe('/logout');
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(((await done) as ApiError).message).toBe(STEP_UP_MESSAGES.cancelled);
    expect(calls.filter((c) => c.method === 'POST' && c.url.endsWith('/admin/step-up'))).toHaveLength(0);
  });
});
