import vm from 'node:vm';
import { ENDPOINT_LIST, ENDPOINT_TAGS } from '@sac/contract/endpoints';
import { buildOpenApiDocument } from '@sac/contract/openapi';
import { WEBHOOK_EVENT_TYPES, WEBHOOK_EVENTS, WEBHOOK_TEST_EVENT } from '@sac/contract/webhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { VERIFY_SNIPPET } from './webhooks-page.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const get = (url: string) => t.app.inject({ method: 'GET', url });

describe('/docs/openapi.json', () => {
  it('serves the document the contract builds, which the contract test lints', async () => {
    const r = await get('/docs/openapi.json');
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual(JSON.parse(JSON.stringify(buildOpenApiDocument())));
  });
});

describe('/docs', () => {
  it('has a table of contents: every tag and every operation links to its part of the page', async () => {
    const page = (await get('/docs')).body;
    const nav = /<nav class="toc"[^>]*>([\s\S]*?)<\/nav>/.exec(page)?.[1] ?? '';
    for (const e of ENDPOINT_LIST) {
      expect(nav, e.id).toContain(`href="#${e.id}"`);
      expect(page, e.id).toContain(`id="${e.id}"`);
    }
    for (const tag of Object.keys(ENDPOINT_TAGS)) {
      const anchor = `tag-${tag.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
      expect(nav, tag).toContain(`href="#${anchor}">${tag}</a>`);
      expect(page, tag).toContain(`id="${anchor}"`);
    }
    expect(nav).toContain('href="#errors"');
    expect(nav).toMatch(/<input type="search" id="docs-search"[^>]*aria-label="Search operations"/);
  });

  it('shows an example of every request body and 200 answer', async () => {
    const page = (await get('/docs')).body;
    const examples = page.match(/<summary>Example<\/summary>/g) ?? [];
    expect(examples.length).toBe(ENDPOINT_LIST.length + ENDPOINT_LIST.filter((e) => e.body).length);
  });

  it('loads one script, from this origin, which its CSP allows; nothing inline', async () => {
    const r = await get('/docs');
    const scripts = r.body.match(/<script\b[^>]*>[\s\S]*?<\/script>/gi) ?? [];
    expect(scripts).toEqual(['<script src="/docs/docs.js" defer></script>']);
    expect(r.body).not.toMatch(/\son[a-z]+=|\sstyle=|<style|javascript:/i);
    const csp = String(r.headers['content-security-policy']);
    expect(csp).toMatch(/(^|; )script-src 'self'( |;)/);
    expect(csp).toMatch(/(^|; )style-src 'self'( |;)/);
    expect(csp).not.toContain('unsafe-inline');

    const js = await get('/docs/docs.js');
    expect(js.statusCode).toBe(200);
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(js.headers['x-content-type-options']).toBe('nosniff');
    expect(() => new vm.Script(js.body)).not.toThrow();
  });
});

const unescapeHtml = (s: string) =>
  s.replace(
    /&(amp|lt|gt|quot|#39);/g,
    (_m, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[e]!,
  );

describe('/docs/webhooks', () => {
  it('lists every event type with its meaning and trail actions, and the three headers', async () => {
    const r = await get('/docs/webhooks');
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toBe('text/html; charset=utf-8');
    const rows = [...r.body.matchAll(/<tr><td><code>([a-z._]+)<\/code><\/td><td>([^<]*)<\/td>/g)].map((m) => [
      m[1],
      unescapeHtml(m[2]!),
    ]);
    expect(rows).toEqual([
      ...WEBHOOK_EVENT_TYPES.map((type) => [type, WEBHOOK_EVENTS[type].description]),
      [WEBHOOK_TEST_EVENT, expect.stringContaining('test event')],
    ]);
    for (const type of WEBHOOK_EVENT_TYPES)
      for (const action of WEBHOOK_EVENTS[type].actions)
        expect(r.body, type).toContain(`<code>${action}</code>`);
    for (const header of ['webhook-id', 'webhook-timestamp', 'webhook-signature'])
      expect(r.body).toContain(`<tr><td><code>${header}</code></td>`);
  });

  it('shows exactly the verification snippet the snippet test runs', async () => {
    const page = (await get('/docs/webhooks')).body;
    const code = /<pre><code>([\s\S]*?)<\/code><\/pre>/.exec(page)?.[1];
    expect(unescapeHtml(code ?? '')).toBe(VERIFY_SNIPPET);
    expect(page).toContain('standardwebhooks');
  });

  it('keeps to the CSP: no script, nothing inline; the reference links to it', async () => {
    const r = await get('/docs/webhooks');
    expect(r.body).not.toMatch(/<script|\son[a-z]+=|\sstyle=|<style|javascript:/i);
    expect(r.body).toContain('<link rel="stylesheet" href="/docs/docs.css">');
    expect(String(r.headers['content-security-policy'])).toMatch(/(^|; )script-src 'self'( |;)/);
    const reference = (await get('/docs')).body;
    const webhooksTag = /<section class="tag" id="tag-webhooks"[\s\S]*?<section class="op"/.exec(
      reference,
    )?.[0];
    expect(webhooksTag).toContain('href="/docs/webhooks"');
  });
});

/** A stand-in for the few DOM parts the search script touches. */
class Item {
  hidden = false;
  readonly dataset: { search?: string };
  readonly op: boolean;
  readonly children: Item[];
  constructor(search: string | undefined, op = false, children: Item[] = []) {
    this.op = op;
    this.children = children;
    this.dataset = search === undefined ? {} : { search };
  }
  readonly classList = { contains: (c: string) => c === 'op' && this.op };
  querySelector(selector: string) {
    expect(selector).toBe('[data-search]:not([hidden])');
    return this.children.find((c) => !c.hidden) ?? null;
  }
}

describe('/docs/docs.js', () => {
  it('shows the search box and keeps the operations that hold every word typed', async () => {
    const script = (await get('/docs/docs.js')).body;
    const login = new Item('post /admin/login login authentication sign in', true);
    const team = new Item('get /admin/team teamlist team every super user', true);
    const loginEntry = new Item('post /admin/login login authentication sign in');
    const groups = [new Item(undefined, false, [login]), new Item(undefined, false, [team])];
    const listeners: Array<() => void> = [];
    const box = Object.assign(new Item(undefined), {
      hidden: true,
      value: '',
      addEventListener: (_type: string, f: () => void) => listeners.push(f),
    });
    const none = Object.assign(new Item(undefined), { hidden: true });
    const errors = new Item(undefined);
    const document = {
      getElementById: (id: string) => ({ 'docs-search': box, 'docs-search-none': none })[id],
      querySelectorAll: (selector: string) =>
        ({
          '[data-search]': [login, team, loginEntry],
          '[data-tag]': groups,
          '[data-search-hides]': [errors],
        })[selector],
    };
    vm.runInNewContext(script, { document });
    expect(box.hidden).toBe(false);

    const type = (value: string) => {
      box.value = value;
      for (const f of listeners) f();
    };
    type('  POST   login ');
    expect([login.hidden, loginEntry.hidden, team.hidden]).toEqual([false, false, true]);
    expect(groups.map((g) => g.hidden)).toEqual([false, true]);
    expect(none.hidden).toBe(true);
    expect(errors.hidden).toBe(true);
    type('<img src=x onerror=alert(1)>');
    expect([login.hidden, team.hidden, none.hidden]).toEqual([true, true, false]);
    type('');
    expect([login.hidden, team.hidden, none.hidden, errors.hidden, ...groups.map((g) => g.hidden)]).toEqual([
      false,
      false,
      true,
      false,
      false,
      false,
    ]);
  });
});
