// The import rules of the code base (docs/architecture.md), checked on the source text of every
// TypeScript and JavaScript file, and the size rules (files, functions) a newcomer can read:
// `node --test scripts/architecture.test.mjs` (run by `npm test`).
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const SOURCE = /\.(ts|tsx|mts|mjs)$/;
const SKIP_DIRS = new Set(['node_modules', 'dist', '.git', '.tmp', 'data']);

/** Every source file under the given folders, as a map of repository path -> text. */
export function readSources(root, folders) {
  const files = new Map();
  const walk = (dir) => {
    for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = `${dir}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!SKIP_DIRS.has(entry.name)) walk(rel);
      } else if (SOURCE.test(entry.name) && !entry.name.endsWith('.d.mts') && !entry.name.endsWith('.d.ts')) {
        files.set(rel, fs.readFileSync(path.join(root, rel), 'utf8'));
      }
    }
  };
  for (const folder of folders) if (fs.existsSync(path.join(root, folder))) walk(folder);
  return files;
}

// `import … from '…'`, `export … from '…'`, `import '…'`, `import('…')`, type imports included.
const IMPORT =
  /(?:\bimport\s+(?:type\s+)?(?:[\w*${},\s]+\s+from\s+)?|\bexport\s+(?:type\s+)?[\w*${},\s]+\s+from\s+|\bimport\s*\(\s*)['"]([^'"]+)['"]/g;

/** The imports of one file: the specifier, the line, and the repository path it resolves to. */
export function importsOf(file, text) {
  const out = [];
  for (const m of text.matchAll(IMPORT)) {
    const spec = m[1];
    const line = text.slice(0, m.index).split('\n').length;
    let target;
    if (spec.startsWith('.')) target = path.posix.normalize(path.posix.join(path.posix.dirname(file), spec));
    else if (spec.startsWith('@sac/contract/')) target = `packages/contract/src/${spec.slice(14)}.ts`;
    out.push({ spec, line, target });
  }
  return out;
}

const isTest = (file) => /\.test\.(ts|tsx|mjs)$/.test(file) || file.includes('/test/');
const isLowerApi = (file) =>
  /^apps\/api\/src\/(lib|plugins|db|mail|user-input)\//.test(file) || file === 'apps/api/src/app-context.ts';
const moduleOf = (p) => /^apps\/api\/src\/modules\/([^/]+)\//.exec(p)?.[1];
const featureOf = (p) => /^apps\/web\/src\/features\/([^/]+)\//.exec(p)?.[1];

/**
 * The rules: each names what it forbids and how to mend a violation. `applies` picks the files it
 * governs; `forbids` tells whether one resolved import breaks it.
 */
const RULES = [
  {
    name: 'the contract imports no app',
    applies: (file) => file.startsWith('packages/contract/'),
    forbids: (_file, target) => /^(apps|e2e|bench)\//.test(target),
    mend: 'the contract is shared by the API and the console: move what it needs into packages/contract.',
  },
  {
    name: 'API lib/, plugins/, db/ and mail/ import no module',
    applies: isLowerApi,
    forbids: (_file, target) => target.startsWith('apps/api/src/modules/'),
    mend: 'pass the module function in from app.ts (as a dependency of the plugin or context), or move the shared code down into lib/.',
  },
  {
    name: 'API lib/, plugins/, db/, mail/ and modules import nothing from ops/ or seed/',
    // ops/ (jobs, their schedule, backups, command lines) and seed/ (demo and scale data) sit on
    // top: they call the modules, never the other way. Tests may start the jobs they test.
    applies: (file) => isLowerApi(file) || (moduleOf(file) !== undefined && !isTest(file)),
    forbids: (_file, target) => /^apps\/api\/src\/(ops|seed)\//.test(target),
    mend: "a domain job goes into its module (exported by the module's service, scheduled in ops/periodic.ts); what lib/ or db/ need of ops/ moves down into lib/, or is passed in from app.ts or main.ts.",
  },
  {
    name: "ops/ and seed/ reach a module only through its service (the module's *.service.ts)",
    applies: (file) => /^apps\/api\/src\/(ops|seed)\//.test(file) && !isTest(file),
    forbids: (_file, target) => moduleOf(target) !== undefined && !/\.service\.ts$/.test(target),
    mend: "call the module's service; add a service function that names the act where there is none (a bulk load that needs raw speed is a named function of the owning module's service).",
  },
  {
    name: "bench/ reaches the API through its surfaces: a module's service or repo, lib/, db/, config, seed/, the test kit",
    // A bench drives the API over HTTP, or times a service or a repo's SQL directly; it does not
    // start the API's plugins or jobs itself, nor reach into a module's inner files or the console.
    applies: (file) => file.startsWith('bench/'),
    forbids: (_file, target) =>
      target.startsWith('apps/web/') ||
      /^apps\/api\/src\/(plugins|ops)\//.test(target) ||
      /^apps\/api\/src\/(app|main|server)\.ts$/.test(target) ||
      (moduleOf(target) !== undefined && !/\.(service|repo)\.ts$/.test(target)),
    mend: "time the module's service or repo function (export it there), start the server as support.ts does, or move a pure helper down into apps/api/src/lib/.",
  },
  {
    name: "modules import each other only through a named service (another module's *.service.ts)",
    // Tests may reach into another module's repo to arrange their data.
    applies: (file) => moduleOf(file) !== undefined && !isTest(file),
    forbids: (file, target) => {
      const other = moduleOf(target);
      return other !== undefined && other !== moduleOf(file) && !/\.service\.ts$/.test(target);
    },
    mend: "call the other module's service instead, or move the shared rule into that module's service (or down into lib/).",
  },
  {
    name: 'no console feature imports another',
    applies: (file) => featureOf(file) !== undefined,
    forbids: (file, target) => {
      const other = featureOf(target);
      return other !== undefined && other !== featureOf(file);
    },
    mend: 'move the shared piece to apps/web/src/components/ or lib/, or compose the features in apps/web/src/app/.',
  },
  {
    name: 'console lib/, components/ and testing/ import no feature and no app/',
    applies: (file) => /^apps\/web\/src\/(lib|components|testing)\//.test(file),
    forbids: (_file, target) => /^apps\/web\/src\/(features|app)\//.test(target),
    mend: 'shared code must not know the screens: take what it needs as props or parameters.',
  },
];

/**
 * Rules on what a file's code calls, not what it imports: `uses` finds the call in the text.
 */
const USE_RULES = [
  {
    name: 'a transaction is opened only by the write path',
    // Every write of a module runs through runWrite (lib/write-path.ts): the lock of its record
    // with the checks made under it, the version claim, the change and its trail row in one
    // transaction. A module or job that opens its own transaction can keep a change without
    // its trail row, or check under no lock.
    applies: (file) => /^apps\/api\/src\/(modules|ops)\//.test(file) && !isTest(file),
    uses: /\.transaction\s*\(/,
    mend: 'run the write through runWrite (lib/write-path.ts): checks in lock(), the change in change(), the trail row in trail().',
  },
  {
    name: "a module's service re-exports no write of its repo",
    // Another module writes this module's tables only through a function of its service that
    // names the act (addStaffMember, changeStaffRoles): the owner keeps what goes with the write
    // (the sessions that end, authChanged). Reads may be re-exported as they are. A write is
    // told by its name: insert, delete, set, update, create, issue, revoke, record, write, ...
    applies: (file) => moduleOf(file) !== undefined && /\.service\.ts$/.test(file) && !isTest(file),
    uses: /export\s+(?:type\s+)?\{[^}]*\b(?:insert|delete|set|update|upsert|create|issue|revoke|record|write|add|remove|mark|claim|append)[A-Z]\w*[^}]*\}\s*from\s*['"]\.\/[^'"]+\.repo\.ts['"]/,
    mend: 'define the write in the service with a name that says the act (it may call the repo function), and export that.',
  },
];

/** Every broken rule in the files, as readable lines ('' when none). */
export function violations(files) {
  const out = [];
  for (const [file, text] of files) {
    for (const rule of USE_RULES) {
      if (!rule.applies(file)) continue;
      const at = text.search(rule.uses);
      if (at >= 0) {
        const line = text.slice(0, at).split('\n').length;
        out.push(`${rule.name}: ${file}:${line}. Mend: ${rule.mend}`);
      }
    }
    const rules = RULES.filter((r) => r.applies(file));
    if (rules.length === 0) continue;
    for (const imp of importsOf(file, text)) {
      if (!imp.target) continue;
      for (const rule of rules) {
        if (rule.forbids(file, imp.target)) {
          out.push(`${rule.name}: ${file}:${imp.line} imports '${imp.spec}'. Mend: ${rule.mend}`);
        }
      }
    }
  }
  return out;
}

/** The folders the size rules read: the code of every workspace, the scripts, the browser specs' support. */
export const SIZED_FOLDERS = ['packages', 'apps', 'scripts', 'bench', 'e2e/support'];

/**
 * Whether the size rules read a file: code, not a test (tests read as lists of cases) and not a
 * generated file (marked `@generated` in its first lines).
 */
export function sized(file, text) {
  if (isTest(file) || /\.spec\.ts$/.test(file) || !/\.(ts|tsx|mjs)$/.test(file)) return false;
  return !/@generated\b/.test(text.split('\n', 5).join('\n'));
}

/**
 * A module's statements are typed by the schema: built with `qb` and run by `rows`, `firstRow` or
 * `execute` (db/sql.ts), never sent as text through `.query(` with a hand-declared result, so a
 * renamed or dropped column fails the typecheck.
 */
const RAW_STATEMENT = /\.query\s*[<(]/;

/** The module files (not tests) that still send a statement as text. */
export function rawStatementFiles(files) {
  const out = [];
  for (const [file, text] of files)
    if (moduleOf(file) !== undefined && !isTest(file) && RAW_STATEMENT.test(text)) out.push(file);
  return out.sort();
}

export const MAX_FILE_LINES = 500;
export const MAX_FUNCTION_LINES = 100;

const lineCount = (text) => text.split('\n').length - (text.endsWith('\n') ? 1 : 0);

/** The files over MAX_FILE_LINES, as 'path (lines)' keyed by path. */
export function longFiles(files) {
  const out = new Map();
  for (const [file, text] of files) {
    if (!sized(file, text)) continue;
    const n = lineCount(text);
    if (n > MAX_FILE_LINES) out.set(file, n);
  }
  return out;
}

/** What a function is called: its own name, its variable's or property's, else 'anonymous'. */
function nameOf(node) {
  if (node.name && ts.isIdentifier(node.name)) return node.name.text;
  if (node.name) return node.name.getText();
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  const p = node.parent;
  if ((ts.isVariableDeclaration(p) || ts.isPropertyAssignment(p) || ts.isPropertyDeclaration(p)) && p.name)
    return p.name.getText();
  if (ts.isJsxExpression(p) && ts.isJsxAttribute(p.parent)) return p.parent.name.getText();
  if (ts.isCallExpression(p)) return `${p.expression.getText().split('\n')[0].slice(0, 40)}(callback)`;
  return 'anonymous';
}

const isFunction = (node) =>
  ts.isFunctionDeclaration(node) ||
  ts.isFunctionExpression(node) ||
  ts.isArrowFunction(node) ||
  ts.isMethodDeclaration(node) ||
  ts.isConstructorDeclaration(node) ||
  ts.isGetAccessorDeclaration(node) ||
  ts.isSetAccessorDeclaration(node);

/**
 * Whether the comment right above `line` (0-based; a run of `//` lines or a block ending there,
 * e.g. the JSDoc) has a line starting `Long:`, which says why the function is long.
 */
function saysWhyLong(lines, line) {
  let i = line - 1;
  if (i < 0) return false;
  const comment = [];
  if (/\*\/\s*$/.test(lines[i])) {
    while (i >= 0) {
      comment.push(lines[i]);
      if (/\/\*/.test(lines[i])) break;
      i--;
    }
  } else {
    while (i >= 0 && /^\s*\/\//.test(lines[i])) comment.push(lines[i--]);
  }
  return comment.some((l) => /^\s*(?:\/\/|\/\*\*?|\*)\s*Long:/.test(l));
}

/**
 * The functions over MAX_FUNCTION_LINES without a `Long:` comment, keyed 'path: outer.inner'
 * (the names of the classes and functions it sits in, then its own) with their line counts.
 */
export function longFunctions(file, text) {
  const out = new Map();
  const kind = file.endsWith('.tsx')
    ? ts.ScriptKind.TSX
    : file.endsWith('.mjs')
      ? ts.ScriptKind.JS
      : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const lines = text.split('\n');
  const lineOf = (pos) => source.getLineAndCharacterOfPosition(pos).line;
  const visit = (node, outer) => {
    let path = outer;
    if (ts.isClassLike(node) && node.name) path = [...outer, node.name.text];
    if (isFunction(node)) {
      path = [...outer, nameOf(node)];
      const first = lineOf(node.getStart(source));
      const length = lineOf(node.getEnd()) - first + 1;
      // The comment sits above the function's first line, which is its statement's in
      // `export const f = () => {`.
      if (length > MAX_FUNCTION_LINES && !saysWhyLong(lines, first)) {
        let key = `${file}: ${path.join('.')}`;
        for (let n = 2; out.has(key); n++) key = `${file}: ${path.join('.')}#${n}`;
        out.set(key, length);
      }
    }
    ts.forEachChild(node, (child) => visit(child, path));
  };
  visit(source, []);
  return out;
}

/** The long functions of every sized file. */
export function allLongFunctions(files) {
  const out = new Map();
  for (const [file, text] of files) {
    if (!sized(file, text)) continue;
    for (const [key, n] of longFunctions(file, text)) out.set(key, n);
  }
  return out;
}
