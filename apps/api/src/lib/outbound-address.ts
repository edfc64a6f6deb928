import type { LookupAddress } from 'node:dns';
import { lookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP } from 'node:net';

/**
 * Where the server may connect when an address comes from a user (a webhook endpoint, an OpenID
 * issuer): never this machine or its networks unless the operator allows it. The same list serves
 * every such fetch.
 */

/**
 * Addresses of this machine and its networks: loopback, private, link-local, CGNAT, multicast,
 * reserved, documentation, and the IPv6 forms that carry an IPv4 address inside (NAT64, 6to4,
 * Teredo), which could reach the same hosts. An IPv4-mapped IPv6 address (::ffff:a.b.c.d) is
 * checked by BlockList against the IPv4 rules: a rule for all of ::ffff:0:0/96 would refuse every
 * public IPv4 address too.
 */
const PRIVATE = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 3],
] as const)
  PRIVATE.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  // unspecified, loopback and the deprecated IPv4-compatible ::a.b.c.d
  ['::', 96],
  // IPv4-translated (RFC 2765) ::ffff:0:a.b.c.d; not the mapped ::ffff:a.b.c.d (see above)
  ['::ffff:0:0:0', 96],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001::', 32],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const)
  PRIVATE.addSubnet(net, prefix, 'ipv6');

/** Whether an address is one of this machine's or its networks' (anything not an address is). */
export const isPrivateAddress = (address: string): boolean => {
  const v = isIP(address);
  return v === 0 || PRIVATE.check(address, v === 4 ? 'ipv4' : 'ipv6');
};

/** A URL's host without the brackets of an IPv6 literal. */
export const bareHost = (u: URL): string => u.hostname.replace(/^\[|\]$/g, '');

export const isLoopbackHost = (host: string): boolean =>
  host === 'localhost' || host === '::1' || host.startsWith('127.');

export class OutboundAddressError extends Error {
  readonly reason: 'private-address' | 'unresolved';
  readonly host: string;
  readonly address: string | undefined;
  constructor(reason: 'private-address' | 'unresolved', host: string, message: string, address?: string) {
    super(message);
    this.reason = reason;
    this.host = host;
    this.address = address;
  }
}

/**
 * The addresses a host resolves to, refused (OutboundAddressError) when any is private and private
 * ones are not allowed.
 */
export async function publicAddresses(host: string, allowPrivate: boolean): Promise<LookupAddress[]> {
  let found: LookupAddress[];
  try {
    found =
      isIP(host) !== 0
        ? [{ address: host, family: isIP(host) }]
        : await lookup(host, { all: true, verbatim: true });
  } catch (e) {
    throw new OutboundAddressError('unresolved', host, `Could not resolve ${host}: ${(e as Error).message}`);
  }
  if (found.length === 0) throw new OutboundAddressError('unresolved', host, `Could not resolve ${host}.`);
  const inside = allowPrivate ? undefined : found.find((a) => isPrivateAddress(a.address));
  if (inside)
    throw new OutboundAddressError(
      'private-address',
      host,
      `${host} resolves to a loopback, private or link-local address (${inside.address}).`,
      inside.address,
    );
  return found;
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * A `lookup` for http.request that checks what it resolves and connects to exactly that: the
 * address checked is the address used, so a name whose answer changes between a check and the
 * connection (DNS rebinding) cannot reach a private address.
 */
function pinnedLookup(allowPrivate: boolean) {
  return (host: string, options: { all?: boolean }, callback: LookupCallback): void => {
    publicAddresses(host, allowPrivate).then(
      (found) => {
        if (options.all) callback(null, found);
        else callback(null, found[0]!.address, found[0]!.family);
      },
      (err: Error) => callback(Object.assign(err, { code: 'EACCES' }) as NodeJS.ErrnoException, '', 0),
    );
  };
}

export interface OutboundAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The answer's bytes, up to `maxBytes`. */
  body: Buffer;
  /** More came than `maxBytes` (the rest was not read: the connection was dropped). */
  truncated: boolean;
}

/**
 * One HTTP exchange with an address a user gave: connected through pinnedLookup (the address
 * checked is the address used; a literal one checked here), no redirect followed, the whole
 * exchange within `timeoutMs`, and no more of the answer read than `maxBytes`.
 */
export function outboundRequest(
  url: URL,
  opts: {
    method: 'GET' | 'POST';
    headers?: Record<string, string>;
    body?: string;
    allowPrivate: boolean;
    maxBytes: number;
    timeoutMs: number;
    agent?: http.Agent;
  },
): Promise<OutboundAnswer> {
  const host = bareHost(url);
  if (!opts.allowPrivate && isIP(host) !== 0 && isPrivateAddress(host))
    return Promise.reject(
      new OutboundAddressError(
        'private-address',
        host,
        `${host} is a loopback, private or link-local address.`,
        host,
      ),
    );
  const request = url.protocol === 'https:' ? https.request : http.request;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => req.destroy(new Error(`no answer within ${opts.timeoutMs / 1000} s`)),
      opts.timeoutMs,
    );
    const req = request(
      url,
      {
        method: opts.method,
        lookup: pinnedLookup(opts.allowPrivate) as never,
        ...(opts.agent ? { agent: opts.agent } : {}),
        headers: {
          ...(opts.body !== undefined ? { 'content-length': String(Buffer.byteLength(opts.body)) } : {}),
          ...opts.headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        let truncated = false;
        const done = () => {
          clearTimeout(timer);
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks),
            truncated,
          });
        };
        res.on('data', (chunk: Buffer) => {
          if (truncated) return;
          if (size + chunk.length > opts.maxBytes) {
            chunks.push(chunk.subarray(0, opts.maxBytes - size));
            truncated = true;
            res.destroy();
            done();
            return;
          }
          size += chunk.length;
          chunks.push(chunk);
        });
        res.on('end', done);
        res.on('error', (e) => (truncated ? undefined : reject(e)));
      },
    );
    req.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    req.end(opts.body);
  });
}
