import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { importsOf, readSources, violations } from './architecture.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

test('the code base keeps its import rules', () => {
  const files = readSources(root, ['packages/contract/src', 'apps/api/src', 'apps/api/test', 'apps/web/src']);
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
  ];
  for (const [file, text] of allowed) assert.deepEqual(violations(new Map([[file, text]])), [], file);
});
