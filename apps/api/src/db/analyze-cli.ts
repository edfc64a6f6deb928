import { loadConfig } from '../config.ts';
import { migrate } from './migrate.ts';
import { openConfiguredDb } from './open.ts';

// Migrates, then refreshes the planner statistics of the searched tables (after a bulk load or
// a statistics-target change).
const db = await openConfiguredDb(loadConfig());
try {
  await migrate(db);
  for (const table of ['customers', 'sites', 'site_members']) await db.exec(`ANALYZE ${table}`);
  console.log('Statistics refreshed.');
} finally {
  await db.close();
}
