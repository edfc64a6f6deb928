import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { buildOpenApiDocument } from './openapi.ts';

/*
 * The document the API serves at /docs/openapi.json (the API test keeps the two equal), linted by
 * Redocly's CLI with its recommended rules: every warning counts, not only errors. The rules
 * include that every example conforms to its schema.
 */

interface LintReport {
  totals: { errors: number; warnings: number };
  problems: Array<{
    ruleId: string;
    severity: string;
    message: string;
    location: Array<{ pointer: string }>;
  }>;
}

const require = createRequire(import.meta.url);
const cli = require.resolve('@redocly/cli/bin/cli.js');

it('passes the OpenAPI lint (Redocly, recommended rules) with no error and no warning', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sac-openapi-'));
  try {
    const file = path.join(dir, 'openapi.json');
    fs.writeFileSync(file, JSON.stringify(buildOpenApiDocument()));
    // Redocly exits 1 on an error; its report is on stdout either way.
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      [cli, 'lint', file, '--extends', 'recommended', '--format', 'json'],
      {
        cwd: dir,
        maxBuffer: 64 * 1024 * 1024,
        // no usage report and no update check from a test run
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      },
    ).catch((err: { stdout?: string; stderr?: string }) => ({
      stdout: err.stdout ?? '',
      stderr: err.stderr ?? String(err),
    }));
    expect(stdout, stderr).toMatch(/^\s*\{/);
    const report = JSON.parse(stdout) as LintReport;
    const problems = report.problems.map(
      (p) => `${p.severity} ${p.ruleId} at ${p.location[0]?.pointer}: ${p.message}`,
    );
    expect(problems).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}, 30_000);
