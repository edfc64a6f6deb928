import { HEADERS } from '@sac/contract/constants';
import type { StaffNotification } from '@sac/contract/staff-notifications';

/** An SSE stream read through fetch with the session headers, as the console reads it. */
export function openSse(base: string, session: { xtoken: string; xsign: string }, lastEventId?: string) {
  const controller = new AbortController();
  const events: Array<{ id: string; data: { Notification: StaffNotification; UnreadCount: number } }> = [];
  let text = '';
  let ended = false;
  const response = fetch(`${base}/admin/notifications/stream`, {
    signal: controller.signal,
    headers: {
      [HEADERS.ajaxMarker]: HEADERS.ajaxMarkerValue,
      [HEADERS.token]: session.xtoken,
      [HEADERS.sign]: session.xsign,
      'accept-encoding': 'gzip, br',
      ...(lastEventId ? { 'last-event-id': lastEventId } : {}),
    },
  });
  const done = response.then(async (r) => {
    if (r.status !== 200) return r;
    const reader = r.body!.getReader();
    const decoder = new TextDecoder();
    try {
      for (;;) {
        const { value, done: over } = await reader.read();
        if (over) break;
        text += decoder.decode(value, { stream: true });
        let cut = text.indexOf('\n\n');
        while (cut >= 0) {
          const block = text.slice(0, cut);
          text = text.slice(cut + 2);
          const id = /^id: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (id && data) events.push({ id, data: JSON.parse(data) });
          cut = text.indexOf('\n\n');
        }
      }
    } catch {
      // aborted
    }
    ended = true;
    return r;
  });
  return {
    response,
    events,
    done,
    ended: () => ended,
    close: () => controller.abort(),
    async waitFor(n: number, ms = 3000) {
      const until = Date.now() + ms;
      while (events.length < n && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
      return events;
    },
  };
}
