import { describe, expect, it, vi } from 'vitest';
import { deriveApiBase, loadRuntimeConfig, parseRuntimeConfig, resolveApiBase } from './api-base.ts';

describe('deriveApiBase (spec section 7)', () => {
  it('uses port 3001 on localhost', () => {
    expect(deriveApiBase('localhost', [])).toBe('http://localhost:3001');
  });

  it('uses http and port 3002 for a fixed IP host', () => {
    expect(deriveApiBase('10.1.2.3', ['10.1.2.3', '10.1.2.4'])).toBe('http://10.1.2.3:3002');
    expect(deriveApiBase('10.1.2.4', ['10.1.2.3', '10.1.2.4'])).toBe('http://10.1.2.4:3002');
  });

  it('appends -api to the first host label over https otherwise', () => {
    expect(deriveApiBase('console.example.com', [])).toBe('https://console-api.example.com');
    expect(deriveApiBase('admin.eu.example.co.uk', [])).toBe('https://admin-api.eu.example.co.uk');
    expect(deriveApiBase('intranet', [])).toBe('https://intranet-api');
  });

  it('does not treat an IP outside the fixed list as fixed', () => {
    expect(deriveApiBase('10.9.9.9', ['10.1.2.3'])).toBe('https://10-api.9.9.9');
  });
});

describe('resolveApiBase', () => {
  it('lets a configured apiBaseUrl win, trailing slash removed', () => {
    expect(
      resolveApiBase({ apiBaseUrl: 'https://api.internal/', fixedIpHosts: [] }, 'console.example.com'),
    ).toBe('https://api.internal');
  });

  it("treats '' as the console's own origin", () => {
    expect(resolveApiBase({ apiBaseUrl: '', fixedIpHosts: [] }, 'localhost')).toBe('');
  });

  it('derives when apiBaseUrl is null', () => {
    expect(resolveApiBase({ apiBaseUrl: null, fixedIpHosts: ['192.168.1.5'] }, '192.168.1.5')).toBe(
      'http://192.168.1.5:3002',
    );
  });
});

describe('runtime config', () => {
  it('parses and rejects bad shapes', () => {
    expect(parseRuntimeConfig({ apiBaseUrl: null, fixedIpHosts: ['A.B'] })).toEqual({
      apiBaseUrl: null,
      fixedIpHosts: ['a.b'],
      productName: null,
      links: null,
    });
    const links = {
      terms: 'https://acme.test/t',
      privacy: 'https://acme.test/p',
      systemStatus: 'https://s.acme.test/',
    };
    expect(parseRuntimeConfig({ apiBaseUrl: '', productName: ' Acme Ops ', links })).toMatchObject({
      productName: 'Acme Ops',
      links,
    });
    // a link that is not http(s) is not used: the placeholders stay
    expect(
      parseRuntimeConfig({ apiBaseUrl: '', links: { ...links, terms: 'javascript:alert(1)' } }).links,
    ).toBeNull();
    expect(() => parseRuntimeConfig({ apiBaseUrl: 3 })).toThrow();
    expect(() => parseRuntimeConfig({ fixedIpHosts: 'x' })).toThrow();
    expect(() => parseRuntimeConfig(null)).toThrow();
  });

  it('fails on a non-2xx answer and on network errors', async () => {
    const notFound = vi.fn(async () => new Response('nope', { status: 404 }));
    await expect(loadRuntimeConfig(notFound as unknown as typeof fetch)).rejects.toThrow();
    const offline = vi.fn(async () => {
      throw new TypeError('Failed to fetch');
    });
    await expect(loadRuntimeConfig(offline as unknown as typeof fetch)).rejects.toThrow();
    const ok = vi.fn(async () => Response.json({ apiBaseUrl: '', fixedIpHosts: [] }));
    await expect(loadRuntimeConfig(ok as unknown as typeof fetch)).resolves.toEqual({
      apiBaseUrl: '',
      fixedIpHosts: [],
      productName: null,
      links: null,
    });
  });
});
