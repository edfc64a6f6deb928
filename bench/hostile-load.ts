import { sleep } from './support.ts';

/*
 * The hostile mix: callers who need no privilege or only the read-only Support role, running
 * beside whatever a bench measures: 40 anonymous reset calls a second with bogus tokens, 4 hashing
 * previews at the PBKDF2 cap kept in flight, and 2 catastrophic-pattern checks a second.
 */

const HEADERS = { 'X-Requested-With': 'XMLHttpRequest', 'Content-Type': 'application/json' };

/** Runs `fire` every `everyMs` until stopped; counts the answers by status. */
function steady(everyMs: number, fire: () => Promise<Response>) {
  const statuses = new Map<number, number>();
  const pending = new Set<Promise<void>>();
  const timer = setInterval(() => {
    const p = fire()
      .then(async (r) => {
        await r.arrayBuffer();
        statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
      })
      .catch(() => {
        statuses.set(0, (statuses.get(0) ?? 0) + 1);
      })
      .finally(() => pending.delete(p));
    pending.add(p);
  }, everyMs);
  return {
    statuses,
    async stop() {
      clearInterval(timer);
      await Promise.all(pending);
    },
  };
}

/** Keeps `n` calls in flight until stopped. */
function inFlight(n: number, fire: () => Promise<Response>) {
  const statuses = new Map<number, number>();
  let stopped = false;
  const loops = Array.from({ length: n }, async () => {
    while (!stopped) {
      try {
        const r = await fire();
        await r.arrayBuffer();
        statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
        // a refused preview comes back at once: its caller tries again a little later, as a person would
        if (r.status !== 200) await sleep(50);
      } catch {
        statuses.set(0, (statuses.get(0) ?? 0) + 1);
      }
    }
  });
  return {
    statuses,
    async stop() {
      stopped = true;
      await Promise.all(loops);
    },
  };
}

const show = (m: Map<number, number>) =>
  [...m.entries()]
    .sort(([a], [b]) => a - b)
    .map(([s, n]) => `${n}×${s}`)
    .join(', ');

export interface HostileMix {
  /** Stops the mix and says what it was answered (counts by status). */
  stop(): Promise<string>;
}

/** Starts the hostile mix against a server whose demo data is in (signs in as the demo Support). */
export async function startHostileMix(url: string, password: string): Promise<HostileMix> {
  const session = (await (
    await fetch(`${url}/admin/login`, {
      method: 'POST',
      headers: HEADERS,
      body: JSON.stringify({ email: 'support@example.com', password }),
    })
  ).json()) as { xtoken: string; xsign: string };
  const auth = { ...HEADERS, xtoken: session.xtoken, xsign: session.xsign };
  const found = (await (
    await fetch(`${url}/admin/searchcustomer?emailid=ada.lovelace%40analytical.example`, {
      headers: auth,
    })
  ).json()) as { Data: Array<{ Uid: string }> };
  const uid = found.Data[0]!.Uid;
  const sites = (await (await fetch(`${url}/admin/apps?uid=${uid}`, { headers: auth })).json()) as {
    Data: Array<{ appId: number }>;
  };
  const site = `uid=${uid}&appId=${sites.Data[0]!.appId}`;

  const resets = steady(25, () =>
    fetch(`${url}/admin/resetpassword`, {
      method: 'PUT',
      headers: HEADERS,
      body: JSON.stringify({ password: 'Brand#New1', resettoken: `bogus-${Math.random()}` }),
    }),
  );
  const previews = inFlight(4, () =>
    fetch(`${url}/admin/encryption-settings/preview?${site}`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({
        data: {
          EncryptionType: 'PBKDF2-SHA512',
          HashEncoding: 'hex',
          SaltEncoding: 'utf8',
          Salt: 'pepper',
          Iterations: 210_000,
        },
        Sample: 'Secret#1',
      }),
    }),
  );
  const patterns = steady(500, () =>
    fetch(`${url}/admin/customobject/validate?${site}`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({
        Schema: JSON.stringify({ type: 'string', pattern: '^(a+)+$' }),
        Sample: JSON.stringify(`${'a'.repeat(30_000)}!`),
      }),
    }),
  );
  return {
    async stop() {
      await Promise.all([resets.stop(), previews.stop(), patterns.stop()]);
      return `resets ${show(resets.statuses)}; previews ${show(previews.statuses)}; pattern checks ${show(patterns.statuses)}`;
    },
  };
}
