import { ensurePgliteTemplate } from './pglite-template.ts';

// `npm start`'s build step: the migrated PGlite cluster new data directories start as a copy of.
const started = performance.now();
const { dir, made } = await ensurePgliteTemplate();
if (made)
  console.log(
    `Prepared the embedded database template ${dir} in ${Math.round(performance.now() - started)} ms`,
  );
