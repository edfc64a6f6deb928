import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { freshDb } from '../../test/harness.ts';
import type { Db } from './db.ts';
import { generateSchemaTypes } from './schema-types.ts';

const FILE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'schema.generated.ts');
let db: Db;
let drop: () => Promise<void>;
beforeAll(async () => {
  ({ db, drop } = await freshDb());
});
afterAll(() => drop());

it('the committed row types are the migrated schema’s (else: npm run db:types -w @sac/api)', async () => {
  expect(await generateSchemaTypes(db)).toBe(fs.readFileSync(FILE, 'utf8'));
});
