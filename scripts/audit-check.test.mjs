// node --test scripts/audit-check.test.mjs: the verdicts of audit-check.mjs on saved npm audit answers.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const SCRIPT = path.join(path.dirname(fileURLToPath(import.meta.url)), 'audit-check.mjs');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'audit-check-'));

function judge(answer, env = {}) {
  const file = path.join(dir, `${Math.random().toString(36).slice(2)}.json`);
  fs.writeFileSync(file, typeof answer === 'string' ? answer : JSON.stringify(answer));
  const { CI: _ci, AUDIT_OFFLINE_OK: _ok, ...rest } = process.env;
  const r = spawnSync(process.execPath, [SCRIPT, '--from-file', file], {
    encoding: 'utf8',
    env: { ...rest, ...env },
  });
  return { code: r.status, out: r.stdout };
}

const report = (counts, vulnerabilities = {}) => ({
  auditReportVersion: 2,
  vulnerabilities,
  metadata: {
    vulnerabilities: { info: 0, low: 0, moderate: 0, high: 0, critical: 0, total: 0, ...counts },
    dependencies: { prod: 120, total: 400 },
  },
});
const unreachable405 = {
  message: '405 Method Not Allowed - POST https://registry.example/-/npm/v1/security/advisories/bulk',
  statusCode: 405,
  error: { summary: '', detail: '' },
};

test('no finding passes, with the summary', () => {
  const r = judge(report({}));
  assert.equal(r.code, 0);
  assert.match(r.out, /120 production dependencies; findings: 0 critical, 0 high, 0 moderate/);
  assert.match(r.out, /no high or critical finding/);
});

test('moderate and low findings pass', () => {
  assert.equal(judge(report({ moderate: 2, low: 1, total: 3 })).code, 0);
});

test('a high or critical finding fails and names the package and its fix', () => {
  const r = judge(
    report(
      { high: 1, total: 1 },
      {
        'some-lib': {
          name: 'some-lib',
          severity: 'high',
          range: '<2.0.1',
          via: [{ title: 'Prototype pollution', url: 'https://advisories.example/1' }],
          fixAvailable: { name: 'some-lib', version: '2.0.1', isSemVerMajor: false },
        },
      },
    ),
  );
  assert.equal(r.code, 1);
  assert.match(r.out, /HIGH some-lib <2\.0\.1: Prototype pollution/);
  assert.match(r.out, /fix: some-lib@2\.0\.1/);
  assert.equal(judge(report({ critical: 1, total: 1 })).code, 1);
});

test('an unreachable audit service: a note outside CI, a failure in CI unless accepted explicitly', () => {
  const local = judge(unreachable405);
  assert.equal(local.code, 0);
  assert.match(local.out, /could not be used: 405/);
  assert.match(local.out, /not checked here \(not in CI\)/);
  assert.equal(judge(unreachable405, { CI: 'false' }).code, 0);
  const ci = judge(unreachable405, { CI: 'true' });
  assert.equal(ci.code, 1);
  assert.match(ci.out, /FAILED: in CI the audit must run/);
  assert.equal(judge(unreachable405, { CI: 'true', AUDIT_OFFLINE_OK: '1' }).code, 0);
  assert.equal(
    judge({ error: { code: 'ENOTFOUND', summary: 'getaddrinfo ENOTFOUND' } }, { CI: '1' }).code,
    1,
  );
  assert.equal(judge('npm ERR! something', { CI: 'true' }).code, 1);
});
