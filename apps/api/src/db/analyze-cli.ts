import { loadConfig } from '../config.ts';
import { migrate } from './migrate.ts';
import { openConfiguredDbOrExit } from './open.ts';
import { SEARCHED_TABLES } from './searched-tables.ts';

// Migrates, then refreshes the planner statistics and the visibility map of the searched tables
// (after a bulk load, a statistics-target change or a new index): the search counts are
// index-only scans, which read the heap for every page the visibility map does not mark.
const db = await openConfiguredDbOrExit(loadConfig());
try {
  await migrate(db);
  for (const table of [...SEARCHED_TABLES, 'site_members']) await db.exec(`VACUUM (ANALYZE) ${table}`);
  console.log('Statistics refreshed.');
} finally {
  await db.close();
}
