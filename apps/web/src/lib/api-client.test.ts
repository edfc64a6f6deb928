import { STORAGE_KEYS } from '@sac/contract/constants';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setApiBase } from './api-base.ts';
import { ApiError, callApi, requestHeaders, toQueryString } from './api-client.ts';
import { onSessionEnded } from './auth-events.ts';

beforeEach(() => {
  localStorage.clear();
  setApiBase('https://console-api.example.com');
});
afterEach(() => vi.unstubAllGlobals());

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
    expect(ended).toHaveBeenCalledWith('expired');
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
});
