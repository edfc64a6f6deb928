import { loadConfig } from '../config.ts';
import { migrate } from '../db/migrate.ts';
import { openConfiguredDbOrExit } from '../db/open.ts';
import { seedDemoData } from './seed.ts';

const config = loadConfig();
const db = await openConfiguredDbOrExit(config);
try {
  await migrate(db);
  const demo = await seedDemoData(db, { dataDir: config.dataDir, demoPassword: config.demoPassword, config });
  console.log(demo ? `Demo sign-ins: ${demo.emails.join(', ')} / ${demo.password}` : 'Nothing seeded.');
} finally {
  await db.close();
}
