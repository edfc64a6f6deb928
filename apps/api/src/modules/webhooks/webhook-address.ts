import { WEBHOOK_MESSAGES as M } from '@sac/contract/webhooks';
import { AppError } from '../../lib/app-error.ts';
import { bareHost, OutboundAddressError, publicAddresses } from '../../lib/outbound-address.ts';

/**
 * Whether an endpoint may be subscribed: a full https URL without user info or fragment, whose host
 * resolves now to no loopback, private or link-local address (unless the operator allows those,
 * WEBHOOK_ALLOW_PRIVATE, which also allows plain http). Every delivery checks the address again as
 * it connects (webhook-http.ts), so a name that later points inside is refused then too.
 */
export async function checkEndpoint(url: string, allowPrivate: boolean): Promise<string> {
  const refuse = (message: string) =>
    new AppError('webhookAddress', message, [{ Field: 'Url', Message: message }]);
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw refuse(M.urlInvalid);
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') throw refuse(M.urlInvalid);
  if (u.username || u.password) throw refuse(M.urlHasUser);
  if (u.hash || url.includes('#')) throw refuse(M.urlHasFragment);
  const host = bareHost(u);
  if (u.protocol === 'http:' && !allowPrivate) throw refuse(M.urlHttpsOnly);
  // every address is allowed: nothing to look up now (a name that does not resolve fails its delivery)
  if (allowPrivate) return u.toString();
  try {
    await publicAddresses(host, allowPrivate);
  } catch (e) {
    if (!(e instanceof OutboundAddressError)) throw e;
    throw refuse(e.reason === 'unresolved' ? M.urlUnresolved(host) : M.urlPrivate(host, e.address ?? host));
  }
  return u.toString();
}

/**
 * An endpoint as the trail records it: scheme, host, port and the first path segment, the rest of
 * the path and any query elided. Many receivers carry their secret in the path or query (a chat
 * tool's incoming hook), and the trail is read by auditors and streamed to a SIEM; the
 * subscription itself keeps the whole address for SuperAdmins.
 */
export function endpointShown(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return '';
  }
  const [first, ...rest] = u.pathname.split('/').filter((p) => p !== '');
  const path = first === undefined ? '/' : `/${first}${rest.length > 0 ? '/…' : ''}`;
  return `${u.origin}${path}${u.search ? '?…' : ''}`;
}
