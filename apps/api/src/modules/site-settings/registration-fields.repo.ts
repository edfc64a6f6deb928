import type { Queryable } from '../../db/db.ts';

export interface FieldRow {
  name: string;
  display: string;
  type: string;
  rules: string;
  data_source: string;
  custom: boolean;
  enabled: boolean;
}

/** The fields a site has stored: the default fields it configured, and its custom fields. */
export async function fieldsOfSite(db: Queryable, appId: number): Promise<FieldRow[]> {
  const r = await db.query<FieldRow>('SELECT * FROM registration_fields WHERE app_id = $1', [appId]);
  return r.rows;
}

/** A new custom field, enabled; throws the database's unique violation (23505) when the name is taken. */
export async function insertCustomField(
  db: Queryable,
  appId: number,
  f: { name: string; display: string; type: string; rules: string; dataSource: string },
  at: Date,
): Promise<void> {
  await db.query(
    `INSERT INTO registration_fields (app_id, name, display, type, rules, data_source, custom, enabled, modified_at)
     VALUES ($1, $2, $3, $4, $5, $6, true, true, $7)`,
    [appId, f.name, f.display, f.type, f.rules, f.dataSource, at],
  );
}

/** Stores a default field's rules and whether it is on. */
export async function saveDefaultField(
  db: Queryable,
  appId: number,
  f: { name: string; display: string; type: string; rules: string; enabled: boolean },
  at: Date,
): Promise<void> {
  await db.query(
    `INSERT INTO registration_fields (app_id, name, display, type, rules, custom, enabled, modified_at)
     VALUES ($1, $2, $3, $4, $5, false, $6, $7)
     ON CONFLICT (app_id, name) DO UPDATE SET rules = EXCLUDED.rules, enabled = EXCLUDED.enabled, modified_at = EXCLUDED.modified_at`,
    [appId, f.name, f.display, f.type, f.rules, f.enabled, at],
  );
}

export interface SourceRow {
  name: string;
  parent_name: string;
  rules: string;
  items: Array<{ Value: string; Text: string; Parent?: string }>;
}

export async function dataSourcesOfSite(db: Queryable, appId: number): Promise<SourceRow[]> {
  const r = await db.query<SourceRow>(
    'SELECT name, parent_name, rules, items FROM data_sources WHERE app_id = $1 ORDER BY name',
    [appId],
  );
  return r.rows;
}

/** The item values of one data source of a site (none when there is no such source). */
export async function dataSourceValues(db: Queryable, appId: number, name: string): Promise<string[]> {
  const r = await db.query<{ value: string }>(
    `SELECT item->>'Value' AS value FROM data_sources, jsonb_array_elements(items) AS item
     WHERE app_id = $1 AND name = $2`,
    [appId, name],
  );
  return r.rows.map((x) => x.value);
}

export async function dataSourceExists(db: Queryable, appId: number, name: string): Promise<boolean> {
  const r = await db.query('SELECT 1 FROM data_sources WHERE app_id = $1 AND name = $2', [appId, name]);
  return r.rows.length > 0;
}

/** Throws the database's unique violation (23505) when the site has a data source of this name. */
export async function insertDataSource(
  db: Queryable,
  appId: number,
  d: {
    name: string;
    parentName: string;
    rules: string;
    items: Array<{ Value: string; Text: string; Parent?: string | undefined }>;
  },
  at: Date,
): Promise<void> {
  await db.query(
    'INSERT INTO data_sources (app_id, name, parent_name, rules, items, modified_at) VALUES ($1, $2, $3, $4, $5, $6)',
    [appId, d.name, d.parentName, d.rules, JSON.stringify(d.items), at],
  );
}
