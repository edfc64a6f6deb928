import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPrivateAddress, OutboundAddressError, outboundRequest } from './outbound-address.ts';

let server: http.Server;
let port: number;
let connections = 0;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (req.url === '/big') res.end('x'.repeat(300_000));
    else if (req.url === '/redirect') res.writeHead(302, { location: 'http://169.254.169.254/' }).end();
    else if (req.url === '/slow') setTimeout(() => res.end('late'), 2_000);
    else res.end('ok');
  });
  server.on('connection', () => connections++);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

const get = (
  path: string,
  allowPrivate: boolean,
  host = '127.0.0.1',
  timeoutMs = 5_000,
  maxBytes = 256 * 1024,
) =>
  outboundRequest(new URL(`http://${host}:${port}${path}`), {
    method: 'GET',
    allowPrivate,
    maxBytes,
    timeoutMs,
  });

describe('requests to an address a user gave', () => {
  it('knows the private ranges, the IPv6 forms that carry IPv4 among them', () => {
    for (const a of [
      '127.0.0.1',
      '10.0.0.1',
      '169.254.169.254',
      '100.64.1.1',
      '::1',
      '::',
      '::7f00:1',
      '::ffff:0:7f00:1',
      '::ffff:10.0.0.1',
      '2002:a00:1::',
      '2001:0:4136:e378::1',
      '64:ff9b::a00:1',
      'fd00::1',
      'fe80::1',
    ])
      expect(isPrivateAddress(a), a).toBe(true);
    for (const a of ['93.184.216.34', '8.8.8.8', '::ffff:8.8.8.8', '2606:2800:220:1:248:1893:25c8:1946'])
      expect(isPrivateAddress(a), a).toBe(false);
  });

  it('refuses a name that resolves inside before connecting: the address checked is the one used', async () => {
    const before = connections;
    await expect(get('/', false, 'localhost')).rejects.toBeInstanceOf(OutboundAddressError);
    await expect(get('/', false)).rejects.toThrow(/loopback, private or link-local/);
    expect(connections).toBe(before);
    expect((await get('/', true, 'localhost')).body.toString()).toBe('ok');
  });

  it('reads no more than asked, follows no redirect, and gives up at its timeout', async () => {
    const big = await get('/big', true);
    expect(big.truncated).toBe(true);
    expect(big.body.length).toBe(256 * 1024);
    const moved = await get('/redirect', true);
    expect(moved.status).toBe(302);
    await expect(get('/slow', true, '127.0.0.1', 200)).rejects.toThrow(/no answer within/);
  });
});
