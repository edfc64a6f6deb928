import { loadConfig } from '../config.ts';
import { migrate } from './migrate.ts';
import { openConfiguredDb } from './open.ts';

const db = await openConfiguredDb(loadConfig());
try {
  const applied = await migrate(db);
  console.log(applied.length ? `Applied migrations ${applied.join(', ')}` : 'The database is up to date.');
} finally {
  await db.close();
}
