// The server's entry point (npm start, the tests and benches that start it). Node's compile cache
// goes on before the server's modules load: on a restart their type-stripped sources and V8's
// compiled code come from it, instead of stripping and compiling them again (about half of what
// loading them cost). The cache is keyed by each file's content, so an edited file
// is compiled afresh; where the directory cannot be written, Node runs without it.
import module from 'node:module';
import { fileURLToPath } from 'node:url';

module.enableCompileCache(
  fileURLToPath(new URL('../../../node_modules/.cache/sac/compile-cache', import.meta.url)),
);
// Without DATABASE_URL the server runs on the embedded database (config.ts): its thread starts
// now and loads the engine while the server's modules load.
if (!process.env.DATABASE_URL) (await import('./db/pglite-thread-start.ts')).startPgliteThread();
await import('./server.ts');
