import { STORAGE_KEYS } from '@sac/contract/constants';
import { toQueryString } from '@sac/contract/query-string';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { setApiBase } from './api-base.ts';
import { ApiError, callApi, requestHeaders } from './api-client.ts';
import { onSessionEnded } from './auth-events.ts';
import {
  getImpersonationState,
  IMPERSONATION_STORAGE_KEY,
  startImpersonation,
} from './impersonation-mode.ts';

beforeEach(() => {
  setApiBase('https://console-api.example.com');
});

describe('api client', () => {
  it('url-encodes query parameters, escaping + and spaces', () => {
    expect(toQueryString({ emailid: 'a+b@x.co', customerName: 'Ada Lovelace', empty: undefined })).toBe(
      '?emailid=a%2Bb%40x.co&customerName=Ada%20Lovelace',
    );
    expect(toQueryString(undefined)).toBe('');
  });

  it('sends the auth headers only when both are usable', () => {
    expect(requestHeaders().xtoken).toBeUndefined();
    localStorage.setItem(STORAGE_KEYS.token, 't');
    localStorage.setItem(STORAGE_KEYS.sign, 'undefined');
    const h = requestHeaders();
    expect(h.xtoken).toBeUndefined();
    expect(h.xsign).toBeUndefined();
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBeNull();
    localStorage.setItem(STORAGE_KEYS.token, 't');
    localStorage.setItem(STORAGE_KEYS.sign, 's');
    expect(requestHeaders()).toMatchObject({
      xtoken: 't',
      xsign: 's',
      'X-Requested-With': 'XMLHttpRequest',
      'Content-Type': 'application/json',
    });
  });

  it('ends the session on error 901', async () => {
    localStorage.setItem(STORAGE_KEYS.token, 't');
    localStorage.setItem(STORAGE_KEYS.sign, 's');
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        Response.json(
          { ErrorCode: 901, Description: 'expired', Message: 'm', RequestId: 'r' },
          { status: 401 },
        ),
      ),
    );
    const ended = vi.fn();
    const off = onSessionEnded(ended);
    const error = await callApi('session').catch((e: unknown) => e);
    off();
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe('expired');
    // with the server's words for why
    expect(ended).toHaveBeenCalledWith('expired', 'expired');
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBeNull();
  });

  it('treats a 2xx body with an error code as an error', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Response.json({ ErrorCode: 927, Description: 'Not Found' })),
    );
    await expect(callApi('session')).rejects.toMatchObject({ code: 927, serverText: 'Not Found' });
  });

  it('maps network failures to status 0 without server text', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('Failed to fetch');
      }),
    );
    await expect(callApi('session')).rejects.toMatchObject({ status: 0, serverText: undefined });
  });

  it('sends an explicit pair instead of the stored one', async () => {
    localStorage.setItem(STORAGE_KEYS.token, 't');
    localStorage.setItem(STORAGE_KEYS.sign, 's');
    const fetchMock = vi.fn(async (_url: string, _init: RequestInit) => Response.json({ Data: {} }));
    vi.stubGlobal('fetch', fetchMock);
    await callApi('siteFeature', { query: { userId: 'u', appId: 1 }, auth: { xtoken: 'it', xsign: 'is' } });
    expect(fetchMock.mock.calls[0]![1].headers).toMatchObject({ xtoken: 'it', xsign: 'is' });
    await callApi('session');
    expect(fetchMock.mock.calls[1]![1].headers).toMatchObject({ xtoken: 't', xsign: 's' });
  });

  it('a 401 on an explicit pair ends only the impersonation, not the admin session', async () => {
    localStorage.setItem(STORAGE_KEYS.token, 't');
    localStorage.setItem(STORAGE_KEYS.sign, 's');
    const pair = { xtoken: 'it', xsign: 'is' };
    startImpersonation({
      ...pair,
      ownerUid: 'u-ada',
      startedAt: '2025-01-01T00:00:00.000Z',
      grant: {
        RequestId: 8,
        AppId: 11,
        AppName: 'analytical-engine',
        Roles: ['Developer'],
        Permissions: ['ViewData'],
        ExpiresAt: '2999-01-01T00:00:00.000Z',
        ReasonCode: null,
        ReasonLabel: null,
        CaseReference: null,
        CaseUrl: null,
      },
    });
    const text = 'The impersonation has ended: it expired or was revoked.';
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        Response.json({ ErrorCode: 901, Description: text, Message: 'm', RequestId: 'r' }, { status: 401 }),
      ),
    );
    const ended = vi.fn();
    const off = onSessionEnded(ended);
    const error = await callApi('siteFeature', { query: { userId: 'u-ada', appId: 11 }, auth: pair }).catch(
      (e: unknown) => e,
    );
    off();
    expect(error).toMatchObject({ status: 401, code: 901, serverText: text });
    expect(ended).not.toHaveBeenCalled();
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBe('t');
    expect(localStorage.getItem(STORAGE_KEYS.sign)).toBe('s');
    expect(sessionStorage.getItem(IMPERSONATION_STORAGE_KEY)).toBeNull();
    expect(getImpersonationState()).toMatchObject({
      session: undefined,
      ended: { message: text, ownerUid: 'u-ada', appId: 11, appName: 'analytical-engine' },
    });
  });

  it("an older pair's 401 leaves the current impersonation alone", async () => {
    startImpersonation({
      xtoken: 'new',
      xsign: 'new-s',
      ownerUid: 'u-ada',
      startedAt: '',
      grant: {
        RequestId: 9,
        AppId: 11,
        AppName: 'a',
        Roles: [],
        Permissions: [],
        ExpiresAt: '2999-01-01T00:00:00Z',
        ReasonCode: null,
        ReasonLabel: null,
        CaseReference: null,
        CaseUrl: null,
      },
    });
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Response.json({ ErrorCode: 901, Description: 'x' }, { status: 401 })),
    );
    await callApi('logout', { auth: { xtoken: 'old', xsign: 'old-s' } }).catch(() => undefined);
    expect(getImpersonationState().session?.xtoken).toBe('new');
  });
});
