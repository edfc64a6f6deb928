import { STORAGE_KEYS } from '@sac/contract/constants';

/**
 * Session-end signalling. A logout in one tab tells the others (BroadcastChannel, plus the storage
 * event that clearing the token raises anyway); an expired or revoked session (error 901) tells the
 * app in this tab. Listeners navigate to /login.
 */
const CHANNEL = 'sac-admin-auth';
/** `why`: the server's words for an ended session (ran out, ended from My sessions, by a SuperAdmin). */
type Listener = (reason: 'logout' | 'expired', why?: string) => void;
const listeners = new Set<Listener>();

let channel: BroadcastChannel | undefined;
function getChannel(): BroadcastChannel | undefined {
  if (channel === undefined && typeof BroadcastChannel !== 'undefined')
    channel = new BroadcastChannel(CHANNEL);
  return channel;
}

const emit = (reason: 'logout' | 'expired', why?: string) => {
  for (const l of [...listeners]) l(reason, why);
};

/** Tells other tabs of this console that the user signed out. */
export function broadcastLogout(): void {
  getChannel()?.postMessage({ type: 'logout' });
}

/** Tells this tab that the session ended (error 901), in the server's words for why. */
export function signalSessionExpired(why?: string): void {
  emit('expired', why);
}

/** Subscribes to session ends from this tab and from other tabs; returns the unsubscribe. */
export function onSessionEnded(listener: Listener): () => void {
  listeners.add(listener);
  const ch = getChannel();
  const onMessage = (e: MessageEvent) => {
    if ((e.data as { type?: string } | null)?.type === 'logout') listener('logout');
  };
  const onStorage = (e: StorageEvent) => {
    if ((e.key === STORAGE_KEYS.token || e.key === null) && !e.newValue) listener('logout');
  };
  ch?.addEventListener('message', onMessage);
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    ch?.removeEventListener('message', onMessage);
    window.removeEventListener('storage', onStorage);
  };
}
