import { loadConfig } from '../config.ts';
import { migrateConfigured, openConfiguredDbOrExit } from './open.ts';

const config = loadConfig();
const db = await openConfiguredDbOrExit(config);
try {
  const { applied, warning } = await migrateConfigured(config, db);
  if (warning) console.warn(warning);
  console.log(applied.length ? `Applied migrations ${applied.join(', ')}` : 'The database is up to date.');
} finally {
  await db.close();
}
