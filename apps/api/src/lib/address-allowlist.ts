import { BlockList, isIP } from 'node:net';

/**
 * Address lists of CIDR entries (the staff allowlist, a token's allowed addresses): parsed
 * strictly without patterns (net.isIP and a decimal prefix), matched with net.BlockList. An IPv4
 * address an IPv6 socket reports as ::ffff:a.b.c.d is matched as the IPv4 address it is.
 */

/** The entry in canonical form ('10.0.0.0/8', '2001:db8::/32', '203.0.113.7'), or undefined when it is not one. */
export function parseCidr(
  entry: string,
): { address: string; prefix: number; family: 'ipv4' | 'ipv6' } | undefined {
  const text = entry.trim();
  if (text.length === 0 || text.length > 64) return undefined;
  const slash = text.indexOf('/');
  const address = slash < 0 ? text : text.slice(0, slash);
  const version = isIP(address);
  if (version === 0) return undefined;
  const max = version === 4 ? 32 : 128;
  let prefix = max;
  if (slash >= 0) {
    const digits = text.slice(slash + 1);
    if (digits.length === 0 || digits.length > 3) return undefined;
    for (const c of digits) if (c < '0' || c > '9') return undefined;
    prefix = Number(digits);
    if (prefix > max) return undefined;
  }
  return { address, prefix, family: version === 4 ? 'ipv4' : 'ipv6' };
}

/** The entries that are not addresses or CIDR ranges. */
export const invalidEntries = (entries: readonly string[]): string[] =>
  entries.filter((e) => parseCidr(e) === undefined);

/** Parsed lists, by their entries joined: an allowlist changes rarely and is matched on every call. */
const parsed = new Map<string, BlockList>();

function blockListOf(entries: readonly string[]): BlockList {
  const key = entries.join(',');
  let list = parsed.get(key);
  if (!list) {
    list = new BlockList();
    for (const e of entries) {
      const c = parseCidr(e);
      if (c) list.addSubnet(c.address, c.prefix, c.family);
    }
    if (parsed.size >= 100) parsed.clear();
    parsed.set(key, list);
  }
  return list;
}

/** Whether a list lets `address` in: an empty list lets everyone in. */
export function addressAllowed(entries: readonly string[], address: string): boolean {
  if (entries.length === 0) return true;
  const list = blockListOf(entries);
  const mapped = address.toLowerCase().startsWith('::ffff:') ? address.slice(7) : undefined;
  if (mapped && isIP(mapped) === 4) return list.check(mapped, 'ipv4');
  const version = isIP(address);
  if (version === 0) return false;
  return list.check(address, version === 4 ? 'ipv4' : 'ipv6');
}
