/** Types of node-runtime.mjs, for the tests that start the API (apps/api/test/api-process.ts). */

export function nodeRuntime(): { node: string; env: { PATH: string } };
export function runOnRuntime(file: string, args?: string[], opts?: { cwd?: string }): void;
