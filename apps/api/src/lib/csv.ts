/** The exports' CSV fields, written as the console writes the CSV of a list it holds whole. */
export { csvLine } from '@sac/contract/csv';
