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
await import('./server.ts');
