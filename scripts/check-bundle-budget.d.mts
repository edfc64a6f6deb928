/** Types of check-bundle-budget.mjs, for its unit test (apps/web/src/bundle-budget.test.ts). */

export interface ManifestChunk {
  file: string;
  src?: string;
  name?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
export type Manifest = Record<string, ManifestChunk>;

export interface Budgets {
  signInJs: number;
  signInCss: number;
  firstViewJs: number;
  searchViewJs: number;
  lazyJs: number;
}

export interface BudgetRow {
  name: string;
  files: string[];
  bytes: number;
  budgetKiB: number;
}

export function checkBudget(opts: {
  manifest: Manifest;
  sizeOf: (file: string) => number;
  budgets?: Budgets;
  firstView?: string[];
  searchView?: string[];
}): { rows: BudgetRow[]; over: BudgetRow[]; problems: string[] };
/** The budgets, KiB gzipped, that npm test holds the build to. */
export const BUDGETS: Budgets;
/** The dynamic entries the signed-in shell loads: its module and its namespaces' chunks. */
export const SHELL: readonly string[];
export function formatRows(rows: BudgetRow[]): string;
