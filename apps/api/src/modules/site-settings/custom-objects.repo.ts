import type { Queryable } from '../../db/db.ts';
import { execute, firstRow, qb, rows } from '../../db/sql.ts';

const OBJECT_COLUMNS = ['id', 'name', 'size_mb', 'schema', 'created_at', 'modified_at'] as const;

export async function listObjects(db: Queryable, appId: number) {
  return rows(
    db,
    qb.selectFrom('custom_objects').select(OBJECT_COLUMNS).where('app_id', '=', appId).orderBy('id'),
  );
}

export async function findObject(db: Queryable, appId: number, id: string) {
  return firstRow(
    db,
    qb.selectFrom('custom_objects').select(OBJECT_COLUMNS).where('app_id', '=', appId).where('id', '=', id),
  );
}

/** Throws the database's unique violation (23505) when the site has an object with this Id. */
export async function insertObject(
  db: Queryable,
  appId: number,
  o: { id: string; name: string; sizeMb: number; schema: string },
  at: Date,
): Promise<void> {
  await execute(
    db,
    qb.insertInto('custom_objects').values({
      app_id: appId,
      id: o.id,
      name: o.name,
      size_mb: o.sizeMb,
      schema: o.schema,
      created_at: at,
      modified_at: at,
    }),
  );
}

/** Whether there was such an object to delete. */
export async function deleteObject(db: Queryable, appId: number, id: string): Promise<boolean> {
  const r = await rows(
    db,
    qb.deleteFrom('custom_objects').where('app_id', '=', appId).where('id', '=', id).returning('id'),
  );
  return r.length > 0;
}

/** The object with its new schema; undefined when there is no such object. */
export async function setObjectSchema(db: Queryable, appId: number, id: string, schema: string, at: Date) {
  return firstRow(
    db,
    qb
      .updateTable('custom_objects')
      .set({ schema, modified_at: at })
      .where('app_id', '=', appId)
      .where('id', '=', id)
      .returning(OBJECT_COLUMNS),
  );
}

export type ObjectRow = NonNullable<Awaited<ReturnType<typeof findObject>>>;
