import path from 'node:path';
import { loadConfig } from '../config.ts';
import { privateUmask, restrictDataDir } from '../lib/private-data-dir.ts';
import { backupEmbedded, restoreEmbedded } from './backup.ts';

// node apps/api/src/ops/backup-cli.ts backup  <file.tar.gz>   (server stopped)
// node apps/api/src/ops/backup-cli.ts restore <file.tar.gz>   (into an empty DATA_DIR)
// (Node 24; on an older Node, `node scripts/node-runtime.mjs apps/api/src/ops/backup-cli.ts …`)
privateUmask();
const [command, file] = process.argv.slice(2);
const config = loadConfig();
if (config.databaseUrl) {
  console.error('DATABASE_URL is set: back PostgreSQL up with pg_dump (see docs/operations.md).');
  process.exit(2);
}
if ((command !== 'backup' && command !== 'restore') || !file) {
  console.error(
    'Usage: backup-cli.ts backup <file.tar.gz> | restore <file.tar.gz>   (DATA_DIR names the data directory)',
  );
  process.exit(2);
}
const target = path.resolve(file);
try {
  if (command === 'backup') {
    const bytes = await backupEmbedded(config.dataDir, target);
    console.log(`Backed up ${config.dataDir}/pglite to ${target} (${(bytes / 1_048_576).toFixed(1)} MiB).`);
  } else {
    await restoreEmbedded(target, config.dataDir);
    restrictDataDir(config.dataDir); // an archive's entries keep the modes they were packed with
    console.log(`Restored ${target} into ${config.dataDir}/pglite.`);
  }
} catch (e) {
  console.error((e as Error).message);
  process.exit(1);
}
