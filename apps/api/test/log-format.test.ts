import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { humanLine } from '../src/lib/human-log.ts';
import { PROCESS_TEST_MS, startApi, until } from './api-process.ts';

// A first start at a terminal reads calmly: one short line per request, the listening line and the
// banner naming the same address, the banner last; log collectors get JSON (LOG_FORMAT=json, or
// whenever stdout is not a terminal).
describe('LOG_FORMAT', () => {
  it('is human at a terminal and json elsewhere unless asked, and refuses anything else', () => {
    expect(loadConfig({}, true).logFormat).toBe('human');
    expect(loadConfig({}, false).logFormat).toBe('json');
    expect(loadConfig({ LOG_FORMAT: 'json' }, true).logFormat).toBe('json');
    expect(loadConfig({ LOG_FORMAT: 'human' }, false).logFormat).toBe('human');
    expect(() => loadConfig({ LOG_FORMAT: 'pretty' }, true)).toThrow(
      "LOG_FORMAT must be 'json' or 'human', got 'pretty'",
    );
  });

  it('turns a request line into time, method, path, status and duration; a warning keeps its level', () => {
    const at = Date.UTC(2026, 10, 29, 9, 5, 7);
    const request = JSON.stringify({
      level: 30,
      time: at,
      msg: 'request completed',
      req: { method: 'GET', url: '/admin/team', remoteAddress: '127.0.0.1' },
      res: { statusCode: 200 },
      responseTime: 4.4,
    });
    expect(humanLine(request)).toBe('09:05:07 GET /admin/team 200 4 ms');
    expect(humanLine(JSON.stringify({ level: 40, time: at, msg: 'slow', err: { message: 'boom' } }))).toBe(
      '09:05:07 warn: slow: boom',
    );
    expect(humanLine('not json')).toBe('not json');
  });
});

describe.skipIf(process.env.TEST_DB === 'postgres')('a started server', () => {
  it(
    'with LOG_FORMAT=human prints short lines, one address, and the banner last of the start',
    async () => {
      const api = await startApi(
        { LOG_FORMAT: 'human', LOG_LEVEL: 'info', SEARCH_WARM_UP_MS: '0' },
        { untilReady: true },
      );
      try {
        const out = () => api.output();
        const listening = out().indexOf(`Server listening at http://localhost:${api.port}`);
        const banner = out().indexOf(`Super Admin Console is running at http://localhost:${api.port}`);
        expect(listening).toBeGreaterThanOrEqual(0);
        expect(banner).toBeGreaterThan(listening);
        expect(out()).not.toContain('127.0.0.1:');
        // the banner ends the start: nothing of the start is printed after its 'Ready in' line
        expect(out().trimEnd().split('\n').at(-1)).toMatch(/^ {2}Ready in \d+ ms/);
        await fetch(`${api.url}/livez`);
        await until(() => / GET \/livez 200 \d+ ms\n/.test(out()), 'the request line');
        expect(out()).toMatch(/^\d{2}:\d{2}:\d{2} GET \/livez 200 \d+ ms$/m);
        expect(out()).not.toMatch(/^\{"level"/m);
      } finally {
        expect(await api.stop()).toBe(0);
      }
    },
    PROCESS_TEST_MS,
  );

  it(
    'with LOG_FORMAT=json prints one JSON line per request, the listening address the banner names',
    async () => {
      const api = await startApi(
        { LOG_FORMAT: 'json', LOG_LEVEL: 'info', SEARCH_WARM_UP_MS: '0' },
        { untilReady: true },
      );
      try {
        await fetch(`${api.url}/livez`);
        await until(() => api.output().includes('"url":"/livez"'), 'the request line');
        const json = api
          .output()
          .split('\n')
          .filter((l) => l.startsWith('{'))
          .map((l) => JSON.parse(l) as { msg: string; req?: { url: string } });
        expect(json.find((l) => l.req?.url === '/livez')?.msg).toBe('request completed');
        expect(json.map((l) => l.msg)).toContain(`Server listening at http://localhost:${api.port}`);
        expect(api.output()).toContain(`running at http://localhost:${api.port}`);
      } finally {
        expect(await api.stop()).toBe(0);
      }
    },
    PROCESS_TEST_MS,
  );
});
