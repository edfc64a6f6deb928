import { sql } from 'kysely';
import type { Queryable } from '../../db/db.ts';
import { execute, qb, rows } from '../../db/sql.ts';

/** The fields a site has stored: the default fields it configured, and its custom fields. */
export function fieldsOfSite(db: Queryable, appId: number) {
  return rows(db, qb.selectFrom('registration_fields').selectAll().where('app_id', '=', appId));
}

/** A new custom field, enabled; throws the database's unique violation (23505) when the name is taken. */
export async function insertCustomField(
  db: Queryable,
  appId: number,
  f: { name: string; display: string; type: string; rules: string; dataSource: string },
  at: Date,
): Promise<void> {
  await execute(
    db,
    qb.insertInto('registration_fields').values({
      app_id: appId,
      name: f.name,
      display: f.display,
      type: f.type,
      rules: f.rules,
      data_source: f.dataSource,
      custom: sql.lit(true),
      enabled: sql.lit(true),
      modified_at: at,
    }),
  );
}

/** Stores a default field's rules and whether it is on. */
export async function saveDefaultField(
  db: Queryable,
  appId: number,
  f: { name: string; display: string; type: string; rules: string; enabled: boolean },
  at: Date,
): Promise<void> {
  await execute(
    db,
    qb
      .insertInto('registration_fields')
      .values({
        app_id: appId,
        name: f.name,
        display: f.display,
        type: f.type,
        rules: f.rules,
        custom: sql.lit(false),
        enabled: f.enabled,
        modified_at: at,
      })
      .onConflict((oc) =>
        oc.columns(['app_id', 'name']).doUpdateSet((eb) => ({
          rules: eb.ref('excluded.rules'),
          enabled: eb.ref('excluded.enabled'),
          modified_at: eb.ref('excluded.modified_at'),
        })),
      ),
  );
}

/** One item of a data source, as its items column holds it. */
interface DataSourceItem {
  Value: string;
  Text: string;
  Parent?: string | undefined;
}

export function dataSourcesOfSite(db: Queryable, appId: number) {
  return rows(
    db,
    qb
      .selectFrom('data_sources')
      .select((eb) => [
        'name',
        'parent_name',
        'rules',
        eb.ref('items').$castTo<DataSourceItem[]>().as('items'),
      ])
      .where('app_id', '=', appId)
      .orderBy('name'),
  );
}

/** The item values of one data source of a site (none when there is no such source). */
export async function dataSourceValues(db: Queryable, appId: number, name: string): Promise<string[]> {
  const r = await rows(
    db,
    qb
      .selectFrom(['data_sources', sql<{ value: unknown }>`jsonb_array_elements(items)`.as('item')])
      .select(sql<string>`item->>'Value'`.as('value'))
      .where('app_id', '=', appId)
      .where('name', '=', name),
  );
  return r.map((x) => x.value);
}

export async function dataSourceExists(db: Queryable, appId: number, name: string): Promise<boolean> {
  const r = await rows(
    db,
    qb
      .selectFrom('data_sources')
      .select(sql.lit(1).as('one'))
      .where('app_id', '=', appId)
      .where('name', '=', name),
  );
  return r.length > 0;
}

/** Throws the database's unique violation (23505) when the site has a data source of this name. */
export async function insertDataSource(
  db: Queryable,
  appId: number,
  d: { name: string; parentName: string; rules: string; items: DataSourceItem[] },
  at: Date,
): Promise<void> {
  await execute(
    db,
    qb.insertInto('data_sources').values({
      app_id: appId,
      name: d.name,
      parent_name: d.parentName,
      rules: d.rules,
      items: JSON.stringify(d.items),
      modified_at: at,
    }),
  );
}
