import {
  AUDIT_EVENT_FIELDS,
  AUDIT_EXPORT_VERSION,
  type AuditEvent,
  type AuditExportFormat,
} from '@sac/contract/audit';
import { csvField } from '@sac/contract/csv';
import { csvLine } from '../../lib/csv.ts';
import { canonicalEvent, type ExportSeal, GENESIS, nextChain, sealIsSigned } from './audit-chain.ts';

/**
 * The two files of an exported trail, written and read back.
 *
 * JSON lines: a header line ({"Type":"header",...}), one line per row (the row's fields in the
 * canonical order, then "Chain"), and a seal line ({"Type":"seal",...,"Signature"}).
 * CSV (RFC 4180): a header row, one row per event (Details as JSON, then Chain), and a last row
 * whose first field is #seal. Fields are written by lib/csv.ts.
 */

const CSV_COLUMNS = [...AUDIT_EVENT_FIELDS, 'Chain'] as const;
export const CSV_SEAL_MARK = '#seal';

export function fileHeader(format: AuditExportFormat, seal: Omit<ExportSeal, 'head'>): string {
  return format === 'csv'
    ? csvLine([...CSV_COLUMNS])
    : `${JSON.stringify({ Type: 'header', Version: AUDIT_EXPORT_VERSION, Rows: seal.rows, Filters: seal.filters, ExportedAt: seal.exportedAt })}\n`;
}

/** One row of the file, and the chain after it. */
export function fileRow(
  format: AuditExportFormat,
  e: AuditEvent,
  previous: string,
): { line: string; chain: string } {
  const canonical = canonicalEvent(e);
  const chain = nextChain(previous, canonical);
  if (format !== 'csv') return { line: `${canonical.slice(0, -1)},"Chain":"${chain}"}\n`, chain };
  // csvLine's record, written field by field: no arrays for every row of an export
  let line = '';
  for (const f of AUDIT_EVENT_FIELDS) line += `${csvField(e[f])},`;
  return { line: `${line}${chain}\r\n`, chain };
}

export function fileSeal(format: AuditExportFormat, seal: ExportSeal, signature: string): string {
  return format === 'csv'
    ? csvLine([
        CSV_SEAL_MARK,
        AUDIT_EXPORT_VERSION,
        seal.rows,
        seal.head,
        seal.exportedAt,
        JSON.stringify(seal.filters),
        'Ed25519',
        signature,
      ])
    : `${JSON.stringify({ Type: 'seal', Version: AUDIT_EXPORT_VERSION, Rows: seal.rows, Head: seal.head, Filters: seal.filters, ExportedAt: seal.exportedAt, Algorithm: 'Ed25519', Signature: signature })}\n`;
}

/** Splits text lines into CSV records (a quoted field may hold line breaks); fields keep whether they were quoted. */
async function* csvRecords(
  lines: AsyncIterable<string>,
): AsyncGenerator<Array<{ text: string; quoted: boolean }>> {
  let pending: string | undefined;
  for await (const raw of lines) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (pending === undefined && line === '') continue;
    pending = pending === undefined ? line : `${pending}\r\n${line}`;
    if ((pending.match(/"/g)?.length ?? 0) % 2 === 1) continue;
    const fields: Array<{ text: string; quoted: boolean }> = [];
    let i = 0;
    const s = pending;
    pending = undefined;
    for (;;) {
      if (s[i] === '"') {
        let text = '';
        i++;
        for (;;) {
          const q = s.indexOf('"', i);
          if (q < 0) throw new Error('unterminated quoted field');
          text += s.slice(i, q);
          if (s[q + 1] === '"') {
            text += '"';
            i = q + 2;
          } else {
            i = q + 1;
            break;
          }
        }
        fields.push({ text, quoted: true });
      } else {
        const comma = s.indexOf(',', i);
        const end = comma < 0 ? s.length : comma;
        fields.push({ text: s.slice(i, end), quoted: false });
        i = end;
      }
      if (i >= s.length) break;
      if (s[i] !== ',') throw new Error('text after a quoted field');
      i++;
    }
    yield fields;
  }
  if (pending !== undefined) throw new Error('the file ends inside a quoted field');
}

const NUMERIC_FIELDS = new Set<string>(['AppId', 'ImpersonationRequestId']);
function eventFromCsv(fields: Array<{ text: string; quoted: boolean }>): AuditEvent {
  const e: Record<string, unknown> = {};
  AUDIT_EVENT_FIELDS.forEach((name, i) => {
    const f = fields[i]!;
    if (!f.quoted && f.text === '') e[name] = null;
    else if (name === 'Details') e[name] = JSON.parse(f.text);
    else if (NUMERIC_FIELDS.has(name)) e[name] = Number(f.text);
    else e[name] = f.text.startsWith("'") ? f.text.slice(1) : f.text;
  });
  return e as AuditEvent;
}

export type Verdict = { ok: true; rows: number; head: string } | { ok: false; row: number; reason: string };

/**
 * Checks an exported file: every row's chain, the count and head in the seal, and the seal's
 * signature under the given public key. `lines` are the file's lines without their line breaks.
 */
export async function verifyExport(
  format: AuditExportFormat,
  lines: AsyncIterable<string>,
  publicKeyPem: string,
): Promise<Verdict> {
  let chain = GENESIS;
  let rows = 0;
  let seal: { seal: ExportSeal; signature: string } | undefined;
  const fail = (reason: string): Verdict => ({ ok: false, row: rows, reason });
  try {
    if (format === 'csv') {
      let first = true;
      for await (const fields of csvRecords(lines)) {
        if (first) {
          first = false;
          if (fields.map((f) => f.text).join(',') !== CSV_COLUMNS.join(','))
            return fail('the header row is not the export header');
          continue;
        }
        if (seal) return fail('there is text after the seal');
        if (fields[0]?.text === CSV_SEAL_MARK && !fields[0].quoted) {
          const [, version, count, head, exportedAt, filters, , signature] = fields.map((f) => f.text);
          if (version !== AUDIT_EXPORT_VERSION) return fail('unknown export version');
          seal = {
            seal: {
              rows: Number(count),
              head: head!,
              exportedAt: exportedAt!,
              filters: JSON.parse(filters!),
            },
            signature: signature!,
          };
          continue;
        }
        if (fields.length !== CSV_COLUMNS.length) return fail(`row ${rows + 1} has ${fields.length} fields`);
        chain = nextChain(chain, canonicalEvent(eventFromCsv(fields)));
        rows++;
        if (chain !== fields[CSV_COLUMNS.length - 1]!.text)
          return fail(`row ${rows} does not match its chain`);
      }
    } else {
      let header: Record<string, unknown> | undefined;
      for await (const line of lines) {
        if (line === '') continue;
        const o = JSON.parse(line) as Record<string, unknown>;
        if (!header) {
          if (o.Type !== 'header' || o.Version !== AUDIT_EXPORT_VERSION)
            return fail('the first line is not the export header');
          header = o;
          continue;
        }
        if (seal) return fail('there is text after the seal');
        if (o.Type === 'seal') {
          seal = {
            seal: {
              rows: Number(o.Rows),
              head: String(o.Head),
              exportedAt: String(o.ExportedAt),
              filters: o.Filters as Record<string, unknown>,
            },
            signature: String(o.Signature),
          };
          continue;
        }
        chain = nextChain(chain, canonicalEvent(o as unknown as AuditEvent));
        rows++;
        if (chain !== o.Chain) return fail(`row ${rows} does not match its chain`);
      }
    }
  } catch (e) {
    return fail(`the file cannot be read: ${(e as Error).message}`);
  }
  if (!seal) return fail('the file has no seal (it was cut short)');
  if (seal.seal.rows !== rows) return fail(`the seal counts ${seal.seal.rows} rows, the file holds ${rows}`);
  if (seal.seal.head !== chain) return fail('the seal names another chain head');
  if (!sealIsSigned(seal.seal, seal.signature, publicKeyPem))
    return fail('the signature does not verify with this key');
  return { ok: true, rows, head: chain };
}
