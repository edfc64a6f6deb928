/** Types of pglite-template-key.mjs. */
export function pgliteVersion(): string;
export function pgliteTemplateName(migrationsDir?: string): string;
