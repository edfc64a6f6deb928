import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import {
  allLongFunctions,
  importsOf,
  longFiles,
  longFunctions,
  MAX_FILE_LINES,
  MAX_FUNCTION_LINES,
  rawStatementFiles,
  readSources,
  SIZED_FOLDERS,
  sized,
  violations,
} from './architecture.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

test('the code base keeps its import rules', () => {
  const files = readSources(root, [
    'packages/contract/src',
    'apps/api/src',
    'apps/api/test',
    'apps/web/src',
    'bench',
  ]);
  assert.ok(files.size > 300, `read only ${files.size} files`);
  const broken = violations(files);
  assert.equal(broken.length, 0, `\n${broken.join('\n')}\n`);
});

test('imports are found in every form and resolved', () => {
  const found = importsOf(
    'apps/web/src/features/a/x.tsx',
    [
      "import { a } from './a.ts';",
      "import type { B } from '../../lib/b.ts';",
      "export { c } from '@sac/contract/c';",
      "import './side-effect.ts';",
      "const D = lazy(() => import('../d/d.tsx'));",
      "import {\n  e,\n  f,\n} from 'react';",
    ].join('\n'),
  );
  assert.deepEqual(
    found.map((i) => i.target),
    [
      'apps/web/src/features/a/a.ts',
      'apps/web/src/lib/b.ts',
      'packages/contract/src/c.ts',
      'apps/web/src/features/a/side-effect.ts',
      'apps/web/src/features/d/d.tsx',
      undefined,
    ],
  );
  assert.equal(found[4]?.line, 5);
});

test('each rule fires on a violation and names how to mend it', () => {
  const cases = [
    [
      'packages/contract/src/x.ts',
      "import { y } from '../../../apps/api/src/lib/y.ts';",
      'the contract imports no app',
    ],
    [
      'apps/api/src/lib/x.ts',
      "import { y } from '../modules/auth/sessions.repo.ts';",
      'lib/, plugins/, db/ and mail/',
    ],
    [
      'apps/api/src/plugins/x.ts',
      "import { y } from '../modules/auth/auth.service.ts';",
      'lib/, plugins/, db/ and mail/',
    ],
    [
      'apps/api/src/app-context.ts',
      "import type { Y } from './modules/auth/login-throttle.ts';",
      'lib/, plugins/, db/',
    ],
    [
      'apps/api/src/modules/team/x.ts',
      "import { y } from '../auth/staff.repo.ts';",
      'through a named service',
    ],
    [
      'apps/web/src/features/team/x.tsx',
      "import { y } from '../customers/api/customers-api.ts';",
      'no console feature',
    ],
    ['apps/web/src/lib/x.ts', "import { y } from '../features/auth/a.ts';", 'import no feature and no app/'],
    [
      'apps/web/src/components/x.tsx',
      "import { y } from '../app/router.tsx';",
      'import no feature and no app/',
    ],
    [
      'apps/api/src/modules/x/x.service.ts',
      'export const f = (db) => db.transaction(async (tx) => tx.query(1));',
      'opened only by the write path',
    ],
    [
      'apps/api/src/db/open.ts',
      "import { y } from '../ops/private-data-dir.ts';",
      'nothing from ops/ or seed/',
    ],
    [
      'apps/api/src/app-context.ts',
      "import type { Y } from './ops/leases.ts';",
      'nothing from ops/ or seed/',
    ],
    [
      'apps/api/src/modules/impersonation/x.service.ts',
      "import { y } from '../../ops/expiry-notices.ts';",
      'nothing from ops/ or seed/',
    ],
    ['apps/api/src/lib/x.ts', "import { y } from '../seed/customer-seed.ts';", 'nothing from ops/ or seed/'],
    [
      'apps/api/src/ops/verify-audit-export-cli.ts',
      "import { y } from '../modules/audit/audit-file.ts';",
      'ops/ and seed/ reach a module only through its service',
    ],
    [
      'apps/api/src/seed/seed.ts',
      "import { insertStaff } from '../modules/auth/staff.repo.ts';",
      'ops/ and seed/ reach a module only through its service',
    ],
    [
      'bench/x.bench.ts',
      "import { y } from '../apps/api/src/modules/auth/totp.ts';",
      'bench/ reaches the API through its surfaces',
    ],
    ['bench/x.bench.ts', "import { y } from '../apps/api/src/plugins/auth.ts';", 'bench/ reaches the API'],
    ['bench/x.bench.ts', "import { y } from '../apps/web/src/lib/paths.ts';", 'bench/ reaches the API'],
    [
      'apps/api/src/modules/auth/staff.service.ts',
      "export { findStaffByEmail, insertStaff } from './staff.repo.ts';",
      're-exports no write of its repo',
    ],
    [
      'apps/api/src/modules/customers/sites.service.ts',
      "export {\n  setSiteWebApps,\n} from './customer-writes.repo.ts';",
      're-exports no write of its repo',
    ],
  ];
  for (const [file, text, rule] of cases) {
    const broken = violations(new Map([[file, text]]));
    assert.equal(broken.length, 1, `${file}: ${broken.join('; ')}`);
    assert.ok(broken[0]?.includes(rule), broken[0]);
    assert.ok(broken[0]?.includes('Mend: '), broken[0]);
  }
});

test('what the rules allow', () => {
  const allowed = [
    ['apps/api/src/modules/team/x.ts', "import { y } from '../auth/auth.service.ts';"],
    ['apps/api/src/modules/team/x.test.ts', "import { y } from '../auth/staff.repo.ts';"],
    ['apps/api/src/app.ts', "import { y } from './modules/auth/auth.routes.ts';"],
    ['apps/web/src/app/route-table.tsx', "import { y } from '../features/team/routes.tsx';"],
    ['apps/web/src/features/team/x.tsx', "import { y } from '../../components/dialog.tsx';"],
    ['apps/web/src/features/team/x.tsx', "import { y } from './y.tsx';"],
    ['packages/contract/src/x.ts', "import { z } from 'zod';"],
    ['apps/api/src/lib/write-path.ts', 'return db.transaction(async (tx) => tx.query(1));'],
    ['apps/api/src/modules/x/x.test.ts', 'await ctx.db.transaction(async (tx) => tx.query(1));'],
    ['apps/api/src/main.ts', "import { periodicJobs } from './ops/periodic.ts';"],
    ['apps/api/src/db/open.ts', "import { y } from '../lib/private-data-dir.ts';"],
    ['apps/api/src/modules/notices/notices.test.ts', "import { startJobs } from '../../ops/jobs.ts';"],
    [
      'apps/api/src/ops/periodic.ts',
      "import { y } from '../modules/impersonation/expiry-notices.service.ts';",
    ],
    ['apps/api/src/ops/jobs.ts', "import type { LeaseStore } from '../lib/leases.ts';"],
    ['apps/api/src/seed/seed.ts', "import { addStaffMember } from '../modules/auth/staff.service.ts';"],
    ['apps/api/src/seed/seed.ts', 'const created = await db.transaction(async (tx) => tx.query(1));'],
    ['apps/api/src/seed/seed.test.ts', "import { y } from '../modules/auth/approver-cool-down.ts';"],
    ['bench/x.bench.ts', "import { y } from '../apps/api/src/modules/dashboard/dashboard.repo.ts';"],
    ['bench/x.bench.ts', "import { y } from '../apps/api/src/lib/totp.ts';"],
    ['bench/x.bench.ts', "import { y } from '../apps/api/src/seed/customer-seed.ts';"],
    ['bench/x.bench.ts', "import { y } from '../apps/api/test/soft-authenticator.ts';"],
    [
      'apps/api/src/modules/auth/staff.service.ts',
      "export { findStaffByEmail, lockStaffRows } from './staff.repo.ts';",
    ],
    [
      'apps/api/src/modules/auth/staff.service.ts',
      'export function addStaffMember(tx, s) { return insertStaff(tx, s); }',
    ],
  ];
  for (const [file, text] of allowed) assert.deepEqual(violations(new Map([[file, text]])), [], file);
});

/** What is over a limit now against the list of what was: new offenders and stale entries. */
/** What is over the limit, as a message naming each one with its lines ('' when nothing is). */
function overLimit(now, limit, what) {
  if (now.size === 0) return '';
  const named = [...now.keys()].map((k) => `${k} (${now.get(k)} lines)`);
  return `${what} over ${limit} lines (split it${what === 'functions' ? ", or say why above it with '// Long: ...'" : ''}):\n  ${named.join('\n  ')}`;
}

test("every module's statements are built with the typed builder: none is sent as text", () => {
  const now = rawStatementFiles(readSources(root, ['apps/api/src/modules']));
  assert.deepEqual(now, [], 'write these statements with qb and rows/firstRow/execute (db/sql.ts)');
  assert.deepEqual(
    rawStatementFiles(
      new Map([
        ['apps/api/src/modules/x/x.repo.ts', 'await db.query<{ a: string }>(`SELECT a FROM t`);'],
        ['apps/api/src/modules/x/y.repo.ts', 'await rows(db, qb.selectFrom("t").select("a"));'],
        ['apps/api/src/modules/x/x.test.ts', "await t.db.query('SELECT 1');"],
        ['apps/api/src/lib/z.ts', "await db.query('SELECT 1');"],
      ]),
    ),
    ['apps/api/src/modules/x/x.repo.ts'],
  );
});

test('no source file over the line limit', () => {
  const files = readSources(root, SIZED_FOLDERS);
  assert.equal(overLimit(longFiles(files), MAX_FILE_LINES, 'files'), '');
});

test('no function over the line limit without a Long: comment', () => {
  const files = readSources(root, SIZED_FOLDERS);
  assert.equal(overLimit(allLongFunctions(files), MAX_FUNCTION_LINES, 'functions'), '');
});

test('the size rules read code only: no test, spec or generated file', () => {
  assert.equal(sized('apps/api/src/x.ts', ''), true);
  assert.equal(sized('scripts/x.mjs', ''), true);
  assert.equal(sized('apps/web/src/x.test.tsx', ''), false);
  assert.equal(sized('apps/api/test/helpers.ts', ''), false);
  assert.equal(sized('e2e/x.spec.ts', ''), false);
  assert.equal(sized('apps/api/src/x.ts', '// @generated by y: do not edit\n'), false);
  const long = `${'const a = 1;\n'.repeat(MAX_FILE_LINES + 1)}`;
  assert.deepEqual([...longFiles(new Map([['apps/x.ts', long]])).values()], [MAX_FILE_LINES + 1]);
  assert.equal(longFiles(new Map([['apps/x.ts', 'const a = 1;\n'.repeat(MAX_FILE_LINES)]])).size, 0);
});

test('functions of every kind are measured, and a Long: comment above one lets it be long', () => {
  const body = (n) => '  work();\n'.repeat(n);
  const over = MAX_FUNCTION_LINES - 1; // with its first and last line, one over the limit
  const text = [
    `export function declared() {\n${body(over)}}`,
    `export const arrow = async () => {\n${body(over)}};`,
    `class K {\n  method() {\n${body(over)}  }\n}`,
    `const inner = () => {\n  const nested = function () {\n${body(over)}  };\n};`,
    `function fits() {\n${body(over - 1)}}`,
    `// Long: one table of cases read top to bottom.\nfunction explained() {\n${body(over)}}`,
    `/**\n * Many steps.\n * Long: the steps share one transaction.\n */\nexport const documented = () => {\n${body(over)}};`,
    `// Many steps, no reason given.\nfunction unexplained() {\n${body(over)}}`,
  ].join('\n\n');
  assert.deepEqual(
    [...longFunctions('apps/x.tsx', text).keys()],
    [
      'apps/x.tsx: declared',
      'apps/x.tsx: arrow',
      'apps/x.tsx: K.method',
      'apps/x.tsx: inner',
      'apps/x.tsx: inner.nested',
      'apps/x.tsx: unexplained',
    ],
  );
  assert.equal(longFunctions('apps/x.tsx', text).get('apps/x.tsx: declared'), MAX_FUNCTION_LINES + 1);
});
