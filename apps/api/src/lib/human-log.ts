/**
 * Log lines for a person at a terminal (LOG_FORMAT=human, the default when stdout is one): pino's
 * JSON lines turned into one short line each. A request is `12:00:01 GET /admin/team 200 4 ms`;
 * any other line is its time, its level when it is a warning or worse, and its message (with an
 * error's message). Anything that is not pino's JSON goes through as it came. Redaction happened
 * before: the line holds only what the JSON held, fewer fields of it.
 */
const LEVELS: Record<number, string> = { 40: 'warn', 50: 'error', 60: 'fatal' };

interface PinoLine {
  level?: number;
  time?: number;
  msg?: string;
  req?: { method?: string; url?: string };
  res?: { statusCode?: number };
  responseTime?: number;
  err?: { message?: string };
}

const clock = (ms: number | undefined) => new Date(ms ?? Date.now()).toISOString().slice(11, 19);

/** One pino JSON line as a short human line (without its newline). */
export function humanLine(json: string): string {
  let l: PinoLine;
  try {
    l = JSON.parse(json) as PinoLine;
  } catch {
    return json.replace(/\n$/, '');
  }
  if (typeof l !== 'object' || l === null) return json.replace(/\n$/, '');
  const time = clock(l.time);
  if (l.msg === 'request completed' && l.req) {
    const ms = typeof l.responseTime === 'number' ? ` ${Math.round(l.responseTime)} ms` : '';
    return `${time} ${l.req.method ?? '?'} ${l.req.url ?? '?'} ${l.res?.statusCode ?? '-'}${ms}`;
  }
  const level = LEVELS[l.level ?? 30];
  const err = l.err?.message ? `: ${l.err.message}` : '';
  return `${time} ${level ? `${level}: ` : ''}${l.msg ?? ''}${err}`;
}

/** A pino destination writing human lines to `out` (a terminal's stdout). */
export function humanLogStream(out: { write(s: string): unknown }): { write(line: string): void } {
  return { write: (line) => void out.write(`${humanLine(line)}\n`) };
}
