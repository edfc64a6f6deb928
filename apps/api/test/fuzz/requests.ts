/**
 * Request arbitraries per endpoint of the contract: valid queries and bodies derived from the
 * endpoint's zod schemas (with hints for refined fields and known rows), and invalid ones:
 * wrong types, missing and extra fields, huge strings, unicode (astral, RTL, NUL, lone
 * surrogates), `__proto__`/`constructor`/`prototype` keys, repeated query parameters, malformed
 * JSON, wrong content types and empty bodies. A generated request is plain data (method, URL,
 * headers, payload text), so a failing one is kept as a regression case as it is.
 */

import { BUILT_IN_REASON_CODES } from '@sac/contract/access-reasons';
import { HEADERS } from '@sac/contract/constants';
import type { EndpointDef } from '@sac/contract/endpoints';
import {
  AUDIT_EXPORT_SORT_KEYS,
  AUDIT_SORT_KEYS,
  CUSTOMER_SORT_KEYS,
  DOMAIN_SORT_KEYS,
  LOG_SORT_KEYS,
  REQUEST_SORT_KEYS,
  TRIAL_SORT_KEYS,
} from '@sac/contract/list-sort';
import fc from 'fast-check';
import type { z } from 'zod';
import { PASSWORD } from '../harness.ts';
import { CONSOLE_RESET_PAGE, type Pools, type PrincipalName } from './fixtures.ts';
import { type Hints, validArbitrary } from './zod-arbitrary.ts';

export interface FuzzRequest {
  endpoint: string;
  principal: PrincipalName;
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string;
}

/** About 1 MB of text, under the API's 1 MiB body limit once quoted in JSON. */
const HUGE = 1_000_000;

// ---------------------------------------------------------------------------------------------
// Nasty values

const NASTY_STRINGS = [
  '',
  ' ',
  '\t\r\n',
  '\u0000',
  'a\u0000b',
  '\uD800',
  'x\uDC00y',
  '\uDBFF\uDFFF',
  '\u202Eevil\u202C.exe',
  'مرحبا بالعالم',
  'שלום',
  '𝕳𝖊𝖑𝖑𝖔 😀👩‍👩‍👧‍👦',
  'e\u0301\u0301\u0301',
  '\uFEFF',
  '\u200B\u200D',
  "' OR '1'='1' --",
  '%',
  '_',
  '\\',
  '%_\\%',
  '"',
  '<script>alert(1)</script>',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template-injection probe, sent as text
  '${7*7}',
  '{{7*7}}',
  '../../etc/passwd',
  'null',
  'undefined',
  'NaN',
  'Infinity',
  '-1',
  '0',
  '1e309',
  '9007199254740993',
  '0x1F',
  ' 42 ',
  'true',
  '[]',
  '{}',
  '__proto__',
  'constructor',
  '\r\nX-Injected: 1',
  'a'.repeat(10_000),
] as const;

/** Mostly short nasty text; about one in a hundred is a megabyte long. */
const nastyString: fc.Arbitrary<string> = fc.oneof(
  { weight: 50, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
  { weight: 25, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
  { weight: 20, arbitrary: fc.string({ unit: 'grapheme', maxLength: 30 }) },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom('x', 'é', '😀', '\u0000')
      .map((c) => c.repeat(Math.floor(HUGE / (c.length * 3)))),
  },
);

const wrongTyped: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(null, true, false, 0, -1, 1.5, 2 ** 53 + 2, -0, 1e308, [], {}, [null], { a: 1 }),
  fc.integer(),
  fc.double({ noNaN: true }),
  fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }),
  fc.jsonValue({ maxDepth: 3 }),
  fc.constant(nest(2000)),
);

function nest(depth: number): unknown {
  let v: unknown = 1;
  for (let i = 0; i < depth; i++) v = [v];
  return v;
}

const DANGEROUS_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'isAdmin',
  'roles',
  'Role',
  'uid',
  'toString',
];
const dangerousKey = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...DANGEROUS_KEYS) },
  { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
);
const pollution: fc.Arbitrary<unknown> = fc.constantFrom(
  { isAdmin: true, roles: ['SuperAdmin'], polluted: 'yes' },
  { prototype: { polluted: 'yes' } },
  'polluted',
  null,
  [1],
);

// ---------------------------------------------------------------------------------------------
// Users' patterns and nested JSON: what would freeze a backtracking engine or blow the stack

/** Patterns that backtrack exponentially, or that a linear-time engine refuses, or huge ones. */
const USER_PATTERNS = [
  '^(a+)+$',
  '(x+x+)+y',
  '(a|a)*b',
  '(a|aa)+$',
  '(.*a){25}',
  '^(([a-z])+.)+[A-Z]([a-z])+$',
  '^(\\w+\\s?)*$',
  '(?=a)a',
  '(?<=a)b',
  '(?!x)y',
  '(a)\\1',
  '[',
  '(',
  'a{1000}',
  '(a{100}){100}',
  '((a{1,1000}){1,1000}){1,1000}',
  `${'(a|b)'.repeat(120)}`,
  '^[A-Z]{2}\\d{4}$',
  '',
] as const;
const userPattern: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...USER_PATTERNS) },
  { weight: 1, arbitrary: fc.stringMatching(/^[a-z()+*?|.\\[\]{}0-9^$]{1,40}$/) },
);

/** Text that makes a backtracking engine work on a pattern above: many a's, then a mismatch. */
const evilText: fc.Arbitrary<string> = fc
  .tuple(fc.constantFrom('a', 'x', 'ab'), fc.integer({ min: 20, max: 20_000 }), fc.constantFrom('!', 'y', ''))
  .map(([c, n, end]) => `${c.repeat(n)}${end}`);

/** JSON text nested `depth` deep, as arrays or objects. */
const nestedJsonText = (depth: number, kind: 'array' | 'object'): string =>
  kind === 'array'
    ? `${'['.repeat(depth)}${']'.repeat(depth)}`
    : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
const deepJsonText: fc.Arbitrary<string> = fc
  .tuple(
    fc.constantFrom(20, 33, 65, 1_000, 10_000, 100_000),
    fc.constantFrom('array' as const, 'object' as const),
  )
  .map(([d, k]) => nestedJsonText(d, k));

/** A JSON Schema as text whose patterns are users' patterns, or one nested too deep. */
const hostileSchemaText: fc.Arbitrary<string> = fc.oneof(
  userPattern.map((pattern) => JSON.stringify({ type: 'string', pattern })),
  userPattern.map((pattern) =>
    JSON.stringify({ type: 'object', patternProperties: { [pattern]: { type: 'number' } } }),
  ),
  fc.constant(JSON.stringify({ type: 'array', uniqueItems: true })),
  fc
    .integer({ min: 30, max: 2_000 })
    .map((n) => `${'{"type":"object","properties":{"a":'.repeat(n)}{"type":"string"}${'}}'.repeat(n)}`),
  deepJsonText,
);
const hostileSampleText: fc.Arbitrary<string> = fc.oneof(
  evilText.map((t) => JSON.stringify(t)),
  evilText.map((t) => JSON.stringify({ [t]: 'x' })),
  fc.integer({ min: 100, max: 9_000 }).map((n) => JSON.stringify(Array.from({ length: n }, (_, i) => [i]))),
  deepJsonText,
);

// ---------------------------------------------------------------------------------------------
// Hints: realistic values for refined fields, mixed with known rows

const UID_KEYS = new Set(['uid', 'uId', 'uID', 'userId']);
const APP_ID_KEYS = new Set(['appId', 'appid', 'AppId', 'FromAppId']);

const pick = <T>(xs: readonly T[]) => fc.constantFrom(...xs);

export function makeHints(p: Pools): Hints {
  const uuid = fc.uuid({ version: [4] });
  const uidArb = fc.oneof(
    { weight: 3, arbitrary: pick(p.customerUids) },
    { weight: 2, arbitrary: pick(p.staffUids) },
    { weight: 1, arbitrary: uuid },
  );
  const appIdArb = fc.oneof(
    { weight: 4, arbitrary: pick(p.sites.map((s) => s.appId)) },
    { weight: 1, arbitrary: fc.integer({ min: 1, max: 2_147_483_647 }) },
    { weight: 1, arbitrary: fc.integer({ min: 1, max: 200 }).map(String) },
  );
  const email = fc.oneof(
    { weight: 2, arbitrary: pick(p.emails) },
    {
      weight: 3,
      arbitrary: fc
        .tuple(
          fc.stringMatching(/^[a-z][a-z0-9.]{0,10}[a-z0-9]$/),
          fc.constantFrom('example.com', 'fuzz.example'),
        )
        .map(([l, d]) => `${l.replace(/\.\./g, '.')}@${d}`),
    },
  );
  const strongPassword = fc
    .tuple(
      fc.stringMatching(/^[a-z]{3,8}$/),
      fc.constantFrom('A', 'Z'),
      fc.nat(99),
      fc.constantFrom('!', '@', '#'),
    )
    .map(([a, b, c, d]) => `${a}${b}${c}${d}`);
  const jsonObjectText = fc
    .oneof(
      fc.constant({ type: 'object' }),
      fc.constant({ type: 'object', properties: { id: { type: 'string' } }, required: ['id'] }),
      fc.dictionary(fc.stringMatching(/^[a-z]{1,6}$/), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }),
    )
    .map((o) => JSON.stringify(o));
  const webUrl = fc.oneof(
    fc.constant(''),
    fc.stringMatching(/^https:\/\/[a-z]{2,10}\.example\.com(\/[a-z]{0,5})?$/),
    fc.webUrl(),
  );
  const fieldRules = fc.constantFrom(
    '',
    'required',
    'required|min_length[2]',
    'valid_email|max_length[50]',
    'alpha_dash|exact_length[4]',
    'custom_validation[^[A-Z]+$###Capitals only]',
    'matches[Password]',
  );
  const names = (xs: readonly string[]) =>
    fc.oneof(
      { weight: 3, arbitrary: pick(xs) },
      { weight: 1, arbitrary: fc.stringMatching(/^[A-Za-z][a-z0-9_]{0,8}$/) },
    );
  const someOf = (xs: readonly string[], min: number) =>
    fc.uniqueArray(pick(xs), { minLength: min, maxLength: Math.min(3, xs.length) });

  return (key) => {
    if (UID_KEYS.has(key)) return uidArb;
    if (APP_ID_KEYS.has(key)) return appIdArb;
    switch (key) {
      case 'email':
      case 'Email':
      case 'AuthEmail':
        return email;
      case 'DbName':
        return fc.stringMatching(/^[a-z][a-z0-9_]{0,20}$/);
      case 'ContactEmail':
        return fc.oneof(fc.constant(''), email);
      case 'password':
        // The fixtures' password signs a known email in.
        return fc.oneof(
          { weight: 3, arbitrary: strongPassword },
          { weight: 1, arbitrary: fc.constant(PASSWORD) },
        );
      case 'newpassword':
        return strongPassword;
      case 'oldpassword':
        return fc.oneof(fc.constant(PASSWORD), strongPassword);
      case 'url':
        return fc.oneof(
          { weight: 3, arbitrary: fc.constant(CONSOLE_RESET_PAGE) },
          { weight: 1, arbitrary: fc.webUrl() },
        );
      case 'resettoken':
        return fc.stringMatching(/^[A-Za-z0-9_-]{10,43}$/);
      case 'timezone':
      case 'TimeZone':
        return pick(p.timeZones);
      case 'phone':
      case 'PhoneNumber':
        return fc.oneof(fc.constant(''), fc.stringMatching(/^\d{10}$/));
      case 'ProductionUrl':
      case 'StagingUrl':
        return webUrl;
      case 'Schema':
        return fc.oneof(
          { weight: 2, arbitrary: jsonObjectText },
          { weight: 1, arbitrary: hostileSchemaText },
        );
      case 'Sample':
        return fc.oneof(
          { weight: 2, arbitrary: jsonObjectText },
          { weight: 1, arbitrary: hostileSampleText },
        );
      case 'SizeMB':
        return fc.oneof(fc.integer({ min: 1, max: 200 }), fc.integer({ min: 1, max: 200 }).map(String));
      case 'Rules':
        // field rules (pipe form) and data-source rules (a pattern) share the name
        return fc.oneof(
          { weight: 3, arbitrary: fieldRules },
          { weight: 1, arbitrary: userPattern.map((r) => `custom_validation[${r}###No]`) },
          { weight: 1, arbitrary: userPattern },
        );
      case 'Value':
        return fc.oneof(
          { weight: 3, arbitrary: fc.stringMatching(/^[a-z]{1,8}$/) },
          { weight: 1, arbitrary: evilText },
        );
      case 'ParentName':
        return fc.oneof(fc.constant(''), pick(p.dataSources));
      case 'DataSource':
        return fc.oneof(fc.constant(''), pick(p.dataSources));
      case 'SecurityReportTime':
        return fc.oneof(
          fc.constant(''),
          fc
            .tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }))
            .map(([h, m]) => `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`),
        );
      case 'domain':
        return fc.oneof(pick(p.domains), fc.stringMatching(/^[a-z][a-z0-9]{1,8}\.[a-z]{3,8}\.example$/));
      case 'objId':
        return names(p.objIds);
      case 'token':
        return fc.oneof(
          { weight: 2, arbitrary: pick([...p.consentTokens, ...p.siteAccessTokens, ...p.unsubscribeTokens]) },
          { weight: 1, arbitrary: fc.stringMatching(/^[A-Za-z0-9_-]{8,43}$/) },
        );
      case 'requestId':
        return fc.oneof(
          { weight: 3, arbitrary: pick(p.requestIds) },
          { weight: 1, arbitrary: fc.integer({ min: 1, max: 100_000 }) },
        );
      case 'Iterations':
        // Cheap iterations mostly; and above the preview's cap, which is refused before any hashing.
        return fc.oneof(
          { weight: 9, arbitrary: fc.integer({ min: 1, max: 2_000 }) },
          { weight: 1, arbitrary: fc.constantFrom(600_001, 10_000_000) },
        );
      case 'FeatureSet':
        return names(p.featureSets);
      case 'GlobalServer':
        return names(p.globalServers);
      case 'DataCenter':
        return names(p.dataCenters);
      case 'Assignees':
        return someOf(p.superAdminEmails, 1);
      case 'ProxyRoles':
        return someOf(p.customerRoles, 1);
      case 'ReasonCode':
        // Mostly a code of the list (access-reasons.ts), now and then one that is not (1140).
        return fc.oneof(
          { weight: 9, arbitrary: fc.constantFrom(...BUILT_IN_REASON_CODES.map((c) => c.Code)) },
          { weight: 1, arbitrary: fc.constantFrom('no-such-code', '') },
        );
      case 'AdditionalPermissions':
        return someOf(p.customerPermissions, 0);
      case 'role':
        return someOf(p.staffRoles, 1);
      case 'unAssignRoles':
        return someOf(p.staffRoles, 0);
      case 'from':
      case 'to':
        // The audit trail's time range: instants around now, in either order (the wrong one is 400).
        return fc
          .integer({ min: -90 * 86_400, max: 86_400 })
          .map((s) => new Date(Date.UTC(2026, 0, 15, 10) + s * 1000).toISOString());
      case 'SendAt':
        // A customer notice: now (null), or a time from an hour to 100 days after the fixtures' clock (past 90: 400).
        return fc.oneof(
          fc.constant(null),
          fc
            .integer({ min: 3_600, max: 100 * 86_400 })
            .map((s) => new Date(Date.UTC(2026, 0, 15, 10) + s * 1000).toISOString()),
        );
      case 'q':
        return fc.oneof(pick(p.emails), fc.stringMatching(/^[a-z0-9.@%_-]{3,20}$/));
      case 'actor':
        return fc.oneof(fc.constant(''), email);
      case 'cursor':
        return fc.stringMatching(/^[A-Za-z0-9_-]{1,60}$/);
      case 'sort':
        // the lists' sort keys, either way, and names no list sorts by
        return fc.oneof(fc.constantFrom(...SORT_VALUES), fc.stringMatching(/^-?[a-z]{1,12}$/));
      default:
        return undefined;
    }
  };
}

/** The sort keys of each list endpoint, for its valid queries. */
const LIST_SORTS: Record<string, readonly string[]> = {
  impersonationList: REQUEST_SORT_KEYS,
  impersonationRequestsExport: REQUEST_SORT_KEYS,
  impersonationLogs: LOG_SORT_KEYS,
  impersonationLogsExport: LOG_SORT_KEYS,
  auditEvents: AUDIT_SORT_KEYS,
  auditExport: AUDIT_EXPORT_SORT_KEYS,
  customDomainsAll: DOMAIN_SORT_KEYS,
  trialsEnding: TRIAL_SORT_KEYS,
};

/** Every sort value the lists take, ascending and descending. */
const SORT_VALUES = [
  ...REQUEST_SORT_KEYS,
  ...LOG_SORT_KEYS,
  ...AUDIT_SORT_KEYS,
  ...DOMAIN_SORT_KEYS,
  ...TRIAL_SORT_KEYS,
].flatMap((k) => [k, `-${k}`]);

// ---------------------------------------------------------------------------------------------
// Query strings

type QueryRecord = Array<[string, string]>;

/** Percent-encodes UTF-8 (lone surrogates become U+FFFD, as a browser sends them). */
const encode = (s: string): string =>
  encodeURIComponent(
    s.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD'),
  );

const queryString = (pairs: QueryRecord, raw = ''): string =>
  pairs.map(([k, v]) => `${encode(k)}=${encode(v)}`).join('&') + raw;

function toPairs(q: Record<string, unknown>): QueryRecord {
  const out: QueryRecord = [];
  for (const [k, v] of Object.entries(q)) {
    if (v === undefined) continue;
    for (const x of Array.isArray(v) ? v : [v]) out.push([k, String(x)]);
  }
  return out;
}

const RAW_QUERY_JUNK = [
  '&%',
  '&%zz=1',
  '&=&&',
  '&a=%E0%A4%A',
  '&%00=1',
  '&appId=%00',
  '&__proto__[polluted]=yes',
  '&constructor[prototype][polluted]=yes',
  '&a[b][c]=1',
  '&;=;',
  '#fragment',
  '&uid',
] as const;

function validQueryArbitrary(
  def: EndpointDef,
  hints: Hints,
  pools: Pools,
): fc.Arbitrary<Record<string, unknown>> {
  if (def.id === 'searchCustomer' || def.id === 'searchCustomerExport') {
    const site = pick(pools.sites);
    const sorted = (q: Record<string, unknown>) =>
      fc
        .option(fc.constantFrom(...CUSTOMER_SORT_KEYS.flatMap((k) => [k, `-${k}`])), { nil: undefined })
        .map((sort) => (sort === undefined ? q : { ...q, sort }));
    return fc
      .oneof(
        site.map((s) => ({ sitename: s.name.slice(0, 4) })),
        site.map((s) => ({ apikey: s.apiKey })),
        site.map((s) => ({ apisecret: s.secret })),
        site.map((s) => ({ uid: s.owner })),
        fc.constantFrom('0123', '+44 20', '(202) 555-0143', '5', '+', '1-').map((p) => ({ phone: p })),
        pick(pools.emails).map((e) => ({ emailid: e.slice(0, 6) })),
        fc
          .constantFrom('Ada', 'ad', 'hopper', 'Émilie', 'الخوارزمي', '%', '_')
          .map((n) => ({ customerName: n })),
        validArbitrary(def.query!, hints) as fc.Arbitrary<Record<string, unknown>>,
      )
      .chain(sorted);
  }
  const sorts = LIST_SORTS[def.id];
  // A made-up cursor is always refused, and the sort hint names other lists' keys too: a valid
  // query keeps a cursor 1 time in 4 and sorts by a key of its own list.
  const base = fc
    .tuple(
      validArbitrary(def.query!, hints) as fc.Arbitrary<Record<string, unknown>>,
      fc.nat(3),
      fc.constantFrom(...(sorts ?? [''])),
      fc.boolean(),
    )
    .map(([q, n, key, descending]) => {
      const out = { ...q };
      if ('cursor' in out && n > 0) delete out.cursor;
      if (sorts && 'sort' in out) out.sort = descending ? `-${key}` : key;
      return out;
    });
  const keys = Object.keys(def.query!.shape);
  const uidKey = keys.find((k) => UID_KEYS.has(k));
  const appKey = keys.find((k) => APP_ID_KEYS.has(k));
  if (!appKey) return base;
  // Often a customer and one of their own sites, so that the call finds its row.
  return fc.tuple(base, fc.option(pick(pools.sites), { freq: 1 })).map(([q, s]) => {
    if (!s) return q;
    return { ...q, [appKey]: s.appId, ...(uidKey ? { [uidKey]: s.owner } : {}) };
  });
}

/** A query record made invalid one way. */
function invalidQuery(
  valid: fc.Arbitrary<Record<string, unknown>>,
): fc.Arbitrary<{ pairs: QueryRecord; raw: string }> {
  return fc
    .tuple(
      valid,
      fc.oneof(
        { weight: 10, arbitrary: fc.constantFrom('drop', 'set', 'repeat', 'extra', 'raw') },
        { weight: 1, arbitrary: fc.constant('huge') },
      ),
      fc.nat(),
      nastyString,
      dangerousKey,
      fc.constantFrom(...RAW_QUERY_JUNK),
    )
    .map(([q, how, index, nasty, key, junk]) => {
      const pairs = toPairs(q);
      const i = pairs.length > 0 ? index % pairs.length : -1;
      switch (how) {
        case 'drop':
          if (i >= 0) pairs.splice(i, 1);
          break;
        case 'set':
          if (i >= 0) pairs[i] = [pairs[i]![0], nasty];
          else pairs.push(['q', nasty]);
          break;
        case 'repeat':
          if (i >= 0) pairs.push([pairs[i]![0], nasty === pairs[i]![1] ? `${nasty}x` : nasty]);
          break;
        case 'extra':
          pairs.push([key, nasty]);
          break;
        case 'raw':
          return { pairs, raw: junk };
        case 'huge':
          if (i >= 0) pairs[i] = [pairs[i]![0], 'q'.repeat(HUGE)];
          break;
      }
      return { pairs, raw: '' };
    });
}

// ---------------------------------------------------------------------------------------------
// Bodies

type Path = Array<string | number>;

function paths(v: unknown, at: Path = [], out: Path[] = []): Path[] {
  if (v && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) {
      const p = [...at, Array.isArray(v) ? Number(k) : k];
      out.push(p);
      paths(x, p, out);
    }
  }
  return out;
}

function containerAt(root: unknown, p: Path): Record<string | number, unknown> | undefined {
  let v = root;
  for (const k of p) v = (v as Record<string | number, unknown>)[k];
  return v && typeof v === 'object' ? (v as Record<string | number, unknown>) : undefined;
}

const setOwn = (o: Record<string | number, unknown>, k: string | number, value: unknown) =>
  Object.defineProperty(o, k, { value, enumerable: true, configurable: true, writable: true });

/** A body made invalid one way: a field dropped, of the wrong type or nasty, a dangerous key added, or the root replaced. */
function invalidBody(valid: fc.Arbitrary<unknown>): fc.Arbitrary<string> {
  return fc
    .tuple(
      valid,
      fc.constantFrom('drop', 'wrong-type', 'nasty', 'extra', 'root'),
      fc.nat(),
      wrongTyped,
      nastyString,
      dangerousKey,
      pollution,
    )
    .map(([v, how, index, wrong, nasty, key, polluted]) => {
      const body = JSON.parse(JSON.stringify(v ?? {})) as unknown;
      if (how === 'root') return JSON.stringify(index % 2 === 0 ? wrong : nasty);
      const all = paths(body);
      if (how === 'extra' || all.length === 0) {
        // an added key goes on an object: an array's own keys are its items (and its length)
        const containers = [[], ...all].filter((p) => {
          const c = containerAt(body, p);
          return c !== undefined && !Array.isArray(c);
        });
        const at = containers[index % Math.max(1, containers.length)];
        const target = at === undefined ? undefined : containerAt(body, at);
        if (!target) return JSON.stringify({ [key]: polluted });
        setOwn(target, key, polluted);
        return JSON.stringify(body);
      }
      const p = all[index % all.length]!;
      const parent = containerAt(body, p.slice(0, -1))!;
      const last = p[p.length - 1]!;
      if (how === 'drop') {
        if (Array.isArray(parent)) parent.splice(Number(last), 1);
        else delete parent[last];
      } else setOwn(parent, last, how === 'wrong-type' ? wrong : nasty);
      return JSON.stringify(body);
    });
}

const MALFORMED_JSON = [
  '{',
  '{"a":}',
  "{'a':1}",
  '{"a":1,}',
  '[1,2',
  '{"a":1}garbage',
  'nul',
  '\uFEFF{}',
  '{"a":"\\x41"}',
  '{"a":"\\ud800"}',
  '"unterminated',
  `${'['.repeat(100_000)}${']'.repeat(100_000)}`,
  '{"__proto__":{"polluted":"yes"}}',
  '{"constructor":{"prototype":{"polluted":"yes"}}}',
] as const;

const WRONG_CONTENT_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/xml',
  'application/json-patch+json',
  'application/octet-stream',
  'text/html; charset=utf-8',
] as const;

interface BodyPart {
  payload?: string;
  contentType?: string;
}

const jsonPart = (text: string): BodyPart => ({ payload: text, contentType: 'application/json' });

/** Body junk for any call: malformed JSON, wrong or odd content types, empty and absent bodies. */
const junkBody: fc.Arbitrary<BodyPart> = fc.oneof(
  fc.constantFrom(...MALFORMED_JSON).map(jsonPart),
  fc
    .tuple(fc.constantFrom(...WRONG_CONTENT_TYPES), fc.constantFrom('a=1&b=2', '{"a":1}', '<a/>', ''))
    .map(([contentType, payload]) => ({ payload, contentType })),
  fc.constantFrom<BodyPart>(
    { payload: '', contentType: 'application/json' },
    { payload: '   ', contentType: 'application/json' },
    { payload: '{}', contentType: 'APPLICATION/JSON; charset=UTF-8' },
    { payload: '{}', contentType: 'application/json; charset=utf-16' },
    { payload: 'null', contentType: 'application/json' },
    { payload: '{}' },
    {},
  ),
);

/** Valid bodies whose object-level refinement the deriver cannot see. */
const VALID_BODIES: Record<string, (p: Pools) => fc.Arbitrary<unknown>> = {
  // Exactly one of a feature set and a site to copy from.
  updateSiteFeatures: (p) =>
    fc.oneof(
      pick(p.featureSets).map((FeatureSet) => ({ FeatureSet })),
      pick(p.sites).map((s) => ({ FromAppId: s.appId })),
    ),
};

// ---------------------------------------------------------------------------------------------
// Whole requests

export interface RequestArbitraryOptions {
  pools: Pools;
  hints: Hints;
}

export function requestArbitrary(def: EndpointDef, o: RequestArbitraryOptions): fc.Arbitrary<FuzzRequest> {
  const { pools, hints } = o;
  const principal = fc.oneof(
    { weight: 16, arbitrary: fc.constant<PrincipalName>('superadmin') },
    { weight: 2, arbitrary: fc.constant<PrincipalName>('support') },
    { weight: 2, arbitrary: fc.constant<PrincipalName>('anonymous') },
    { weight: 2, arbitrary: fc.constant<PrincipalName>('impersonating') },
  );
  const marker = fc.oneof(
    { weight: 49, arbitrary: fc.constant(true) },
    { weight: 1, arbitrary: fc.constant(false) },
  );

  let query: fc.Arbitrary<string>;
  if (def.query) {
    const valid = validQueryArbitrary(def, hints, pools);
    query = fc.oneof(
      { weight: 3, arbitrary: valid.map((q) => queryString(toPairs(q))) },
      { weight: 1, arbitrary: invalidQuery(valid).map(({ pairs, raw }) => queryString(pairs, raw)) },
    );
  } else {
    query = fc.oneof(
      { weight: 9, arbitrary: fc.constant('') },
      {
        weight: 1,
        arbitrary: fc
          .tuple(dangerousKey, nastyString, fc.constantFrom('', ...RAW_QUERY_JUNK))
          .map(([k, v, raw]) => queryString([[k, v]], raw)),
      },
    );
  }

  let body: fc.Arbitrary<BodyPart>;
  if (def.body) {
    const derived = validArbitrary(def.body as z.ZodType, hints);
    const override = VALID_BODIES[def.id]?.(pools);
    const valid = override
      ? fc.oneof({ weight: 3, arbitrary: override }, { weight: 1, arbitrary: derived })
      : derived;
    body = fc.oneof(
      { weight: 6, arbitrary: valid.map((v) => jsonPart(JSON.stringify(v))) },
      { weight: 4, arbitrary: invalidBody(valid).map(jsonPart) },
      { weight: 2, arbitrary: junkBody },
    );
  } else {
    body = fc.oneof(
      { weight: 9, arbitrary: fc.constant<BodyPart>({}) },
      {
        weight: 1,
        arbitrary: fc.oneof(
          junkBody,
          fc.jsonValue({ maxDepth: 2 }).map((v) => jsonPart(JSON.stringify(v))),
        ),
      },
    );
  }

  const extraHeaders: fc.Arbitrary<Record<string, string>> =
    def.id === 'customerRequestsCreate'
      ? fc.oneof(
          { weight: 3, arbitrary: pick(pools.sites).map((s) => ({ apikey: s.apiKey, apisecret: s.secret })) },
          {
            weight: 1,
            arbitrary: fc
              .tuple(pick(pools.sites), nastyString)
              .map(([s, secret]) => ({ apikey: s.apiKey, apisecret: headerSafe(secret) })),
          },
          { weight: 1, arbitrary: fc.constant({}) },
        )
      : fc.oneof(
          { weight: 19, arbitrary: fc.constant({}) },
          {
            weight: 1,
            arbitrary: fc
              .tuple(nastyString, nastyString)
              .map(([a, b]) => ({ [HEADERS.token]: headerSafe(a), [HEADERS.sign]: headerSafe(b) })),
          },
        );

  return fc
    .record({ principal, marker, query, body, extraHeaders })
    .map(({ principal, marker, query, body, extraHeaders }) => {
      const headers: Record<string, string> = { ...extraHeaders };
      if (marker) headers[HEADERS.ajaxMarker.toLowerCase()] = HEADERS.ajaxMarkerValue;
      if (body.contentType) headers['content-type'] = body.contentType;
      return {
        endpoint: def.id,
        principal,
        method: def.method,
        url: query ? `${def.path}?${query}` : def.path,
        headers,
        ...(body.payload !== undefined ? { payload: body.payload } : {}),
      };
    });
}

/** Header values carry no control characters or non-Latin-1 text (HTTP would refuse them before the app). */
const headerSafe = (s: string): string => s.replace(/[^\x20-\x7e]/g, '').slice(0, 8_000);
