import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openPgliteMemory } from './db.ts';
import { migrate } from './migrate.ts';
import { generateSchemaTypes } from './schema-types.ts';

/** Writes schema.generated.ts from a database migrated from nothing. */
const SCHEMA_TYPES_FILE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'schema.generated.ts');

const db = await openPgliteMemory();
try {
  await migrate(db);
  fs.writeFileSync(SCHEMA_TYPES_FILE, await generateSchemaTypes(db));
  console.log(`wrote ${path.relative(process.cwd(), SCHEMA_TYPES_FILE)}`);
} finally {
  await db.close();
}
