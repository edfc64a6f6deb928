import type { Queryable } from './db.ts';

/**
 * The TypeScript types of the migrated schema's tables, for the typed statement builder
 * (db/sql.ts): one interface per table, one property per column, typed as the drivers here hand
 * the value back (int8 as a number: db.ts sets that parser; numeric as a string; timestamps as
 * Date, written as a Date or ISO text; JSON read as unknown, to be parsed). A column the database fills (a default, an identity, a generated column) is Generated: it
 * may be left out of an insert. A text column whose CHECK constraint names its values
 * (`col = ANY (ARRAY['a', 'b'])`) is the union of those values. The output is committed as schema.generated.ts; a test regenerates
 * it and fails when the migrations and the file disagree.
 */

interface ColumnInfo {
  table_name: string;
  column_name: string;
  udt_name: string;
  is_nullable: 'YES' | 'NO';
  column_default: string | null;
  is_identity: 'YES' | 'NO';
  is_generated: 'ALWAYS' | 'NEVER';
}

const SCALARS: Record<string, string> = {
  int2: 'number',
  int4: 'number',
  int8: 'number',
  float4: 'number',
  float8: 'number',
  numeric: 'string',
  bool: 'boolean',
  text: 'string',
  varchar: 'string',
  bpchar: 'string',
  citext: 'string',
  uuid: 'string',
  inet: 'string',
  cidr: 'string',
  interval: 'string',
  bytea: 'Uint8Array',
  tsvector: 'string',
};

/** A column's type as read, and as written where that differs (JSON, timestamps). */
interface ColumnTypes {
  read: string;
  write?: string;
}

/** Timestamps and dates come back as Date and may be written as Date or ISO text. */
const TIMES = new Set(['timestamptz', 'timestamp', 'date']);
const JSON_TYPES = new Set(['json', 'jsonb']);

function typeOf(udt: string): ColumnTypes {
  if (udt.startsWith('_')) {
    const inner = typeOf(udt.slice(1)).read;
    return { read: inner.includes(' ') ? `(${inner})[]` : `${inner}[]` };
  }
  if (TIMES.has(udt)) return { read: 'Date', write: 'Date | string' };
  if (JSON_TYPES.has(udt)) return { read: 'unknown', write: 'JsonValue' };
  const t = SCALARS[udt];
  if (!t) throw new Error(`schema-types: no TypeScript type for the column type ${udt}`);
  return { read: t };
}

/** The column's property type: Kysely's Generated/ColumnType where insert or update differ. */
function columnType(c: ColumnInfo, types: ColumnTypes): string {
  const nullable = c.is_nullable === 'YES' ? ' | null' : '';
  const read = `${types.read}${nullable}`;
  if (c.is_generated === 'ALWAYS') return `GeneratedAlways<${read}>`;
  const filled = c.is_identity === 'YES' || c.column_default !== null;
  if (types.write === undefined) return filled ? `Generated<${read}>` : read;
  const write = `${types.write}${nullable}`;
  return `ColumnType<${read}, ${write}${filled ? ' | undefined' : ''}, ${write}>`;
}

const HEADER = `// @generated from the migrated schema by \`npm run db:types -w @sac/api\` (src/db/schema-types.ts).
// Do not edit: change a migration and regenerate; the API tests fail while the two disagree.
import type { ColumnType, Generated, GeneratedAlways } from 'kysely';

/** What a JSON column takes: a value the driver serializes (read back as unknown, to be parsed). */
type JsonValue = string | number | boolean | object | null;
`;

/** `CHECK ((col = ANY (ARRAY['a'::text, 'b'::text])))`: the column and its values. */
const VALUE_LIST = /^CHECK \(\((\w+) = ANY \(ARRAY\[((?:'[^']*'::text(?:, )?)+)\]\)\)\)$/;

function valueLists(checks: { table_name: string; def: string }[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const c of checks) {
    const m = VALUE_LIST.exec(c.def);
    if (!m) continue;
    const values = [...m[2]!.matchAll(/'([^']*)'::text/g)].map((v) => JSON.stringify(v[1]));
    out.set(`${c.table_name}.${m[1]}`, values.join(' | '));
  }
  return out;
}

const pascal = (name: string) => name.replace(/(^|_)([a-z0-9])/g, (_, __, c: string) => c.toUpperCase());

export async function generateSchemaTypes(db: Queryable): Promise<string> {
  const { rows } = await db.query<ColumnInfo>(
    `SELECT c.table_name, c.column_name, c.udt_name, c.is_nullable, c.column_default, c.is_identity, c.is_generated
       FROM information_schema.columns c
       JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
      WHERE c.table_schema = 'public' AND t.table_type IN ('BASE TABLE', 'VIEW')
      ORDER BY c.table_name, c.ordinal_position`,
  );
  const checks = await db.query<{ table_name: string; def: string }>(
    `SELECT conrelid::regclass::text AS table_name, pg_get_constraintdef(oid) AS def
       FROM pg_constraint WHERE contype = 'c' AND connamespace = 'public'::regnamespace`,
  );
  const lists = valueLists(checks.rows);
  const tables = new Map<string, ColumnInfo[]>();
  for (const r of rows) {
    const cols = tables.get(r.table_name) ?? [];
    cols.push(r);
    tables.set(r.table_name, cols);
  }
  const names = [...tables.keys()].sort();
  const out = [HEADER];
  for (const table of names) {
    out.push(`\ninterface ${pascal(table)}Table {`);
    for (const c of tables.get(table)!) {
      const list = lists.get(`${table}.${c.column_name}`);
      out.push(`  ${c.column_name}: ${columnType(c, list ? { read: list } : typeOf(c.udt_name))};`);
    }
    out.push('}');
  }
  out.push('\n/** Every table of the schema, by name: the database type of the statement builder. */');
  out.push('export interface DB {');
  for (const table of names) out.push(`  ${table}: ${pascal(table)}Table;`);
  out.push('}\n');
  return out.join('\n');
}
