/**
 * CSV (RFC 4180) as the exports write it, on the server (streamed lists) and in the console (a
 * list the console holds whole). A null field is empty, an empty text is "".
 * A text that a spreadsheet would run as a formula (= + - @ tab CR) or that starts with ' gets a
 * leading ', so an exported name cannot run in the reader's spreadsheet.
 */
const FORMULA_START = /^[=+\-@\t\r']/;

/** One CSV field, quoted where it must be (no separator). */
export function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text =
    typeof value === 'string' ? value : typeof value === 'number' ? String(value) : JSON.stringify(value);
  if (typeof value === 'string' && FORMULA_START.test(text)) text = `'${text}`;
  if (text === '' || /[",\r\n]/.test(text)) return `"${text.replaceAll('"', '""')}"`;
  return text;
}

/** One CSV record, with its CRLF. */
export const csvLine = (fields: readonly unknown[]): string => `${fields.map(csvField).join(',')}\r\n`;
