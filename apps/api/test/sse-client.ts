import http from 'node:http';
import { HEADERS } from '@sac/contract/constants';
import type { StaffNotification } from '@sac/contract/staff-notifications';

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The body of an answer that is not a stream (an error's envelope). */
  text(): Promise<string>;
}

/**
 * GET /admin/notifications/stream with the session headers, as the console reads it, on a
 * connection of its own (node:http without an agent: fetch keeps a spare connection open after an
 * abort, which would hold the server's close). Parses the events as they come.
 */
export function openSse(base: string, session: { xtoken: string; xsign: string }, lastEventId?: string) {
  const events: Array<{ id: string; data: { Notification: StaffNotification; UnreadCount: number } }> = [];
  /** The events without an id: "the dashboard changed" (STAFF_CHANGE_EVENT), by topic. */
  const changes: string[] = [];
  /** When each of `changes` came (Date.now()). */
  const changeTimes: number[] = [];
  let ended = false;
  let buffer = '';
  let request: http.ClientRequest | undefined;
  let finish: () => void = () => {};
  const done = new Promise<void>((resolve) => {
    finish = () => {
      ended = true;
      resolve();
    };
  });
  const response = new Promise<Answer>((resolve, reject) => {
    request = http.get(
      `${base}/admin/notifications/stream`,
      {
        agent: false,
        headers: {
          [HEADERS.ajaxMarker]: HEADERS.ajaxMarkerValue,
          [HEADERS.token]: session.xtoken,
          [HEADERS.sign]: session.xsign,
          'accept-encoding': 'gzip, br',
          ...(lastEventId ? { 'last-event-id': lastEventId } : {}),
        },
      },
      (res) => {
        res.setEncoding('utf8');
        let whole = '';
        const text = new Promise<string>((r) => res.on('end', () => r(whole)));
        res.on('data', (chunk: string) => {
          whole += chunk;
          buffer += chunk;
          let cut = buffer.indexOf('\n\n');
          while (cut >= 0) {
            const block = buffer.slice(0, cut);
            buffer = buffer.slice(cut + 2);
            const id = /^id: (.*)$/m.exec(block)?.[1];
            const data = /^data: (.*)$/m.exec(block)?.[1];
            if (id && data) events.push({ id, data: JSON.parse(data) });
            else if (data && /^event: changed$/m.test(block)) {
              changes.push(JSON.parse(data).Topic);
              changeTimes.push(Date.now());
            }
            cut = buffer.indexOf('\n\n');
          }
        });
        res.on('end', finish);
        res.on('close', finish);
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text: () => text });
      },
    );
    request.on('error', (err) => {
      finish();
      reject(err);
    });
  });
  response.catch(() => {});
  return {
    response,
    events,
    changes,
    changeTimes,
    done,
    ended: () => ended,
    close: () => request?.destroy(),
    async waitFor(n: number, ms = 3000) {
      const until = Date.now() + ms;
      while (events.length < n && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
      return events;
    },
  };
}
