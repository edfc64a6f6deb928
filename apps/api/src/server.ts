// The server's start: the database is opened first, and on the embedded database its own thread
// opens the directory (pglite-thread.ts) while the server's modules load here (serve.ts): the two
// largest parts of a restart run side by side.
import { loadConfig } from './config.ts';
import { openConfiguredDbOrExit } from './db/open.ts';
import { privateUmask } from './lib/private-data-dir.ts';

// Before any file is made: DATA_DIR's database, key, outbox and records are this user's only
// (openConfiguredDb also makes what is already there 0700/0600).
privateUmask();
const config = loadConfig();
// PostgreSQL is opened after them: its connection's first answers are timed (store-circuit.ts),
// and an event loop busy loading modules would make them late.
const early = config.databaseUrl ? undefined : openConfiguredDbOrExit(config);
early?.catch(() => {}); // awaited by serve(); this only keeps a failure during the imports from going unhandled
const { serve } = await import('./serve.ts');
await serve(config, early ?? openConfiguredDbOrExit(config));
