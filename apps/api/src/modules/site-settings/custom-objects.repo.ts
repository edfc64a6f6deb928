import type { Queryable } from '../../db/db.ts';

export interface ObjectRow {
  id: string;
  name: string;
  size_mb: number;
  schema: string;
  created_at: Date;
  modified_at: Date;
}

export async function listObjects(db: Queryable, appId: number): Promise<ObjectRow[]> {
  const r = await db.query<ObjectRow>('SELECT * FROM custom_objects WHERE app_id = $1 ORDER BY id', [appId]);
  return r.rows;
}

export async function findObject(db: Queryable, appId: number, id: string): Promise<ObjectRow | undefined> {
  const r = await db.query<ObjectRow>('SELECT * FROM custom_objects WHERE app_id = $1 AND id = $2', [
    appId,
    id,
  ]);
  return r.rows[0];
}

/** Throws the database's unique violation (23505) when the site has an object with this Id. */
export async function insertObject(
  db: Queryable,
  appId: number,
  o: { id: string; name: string; sizeMb: number; schema: string },
  at: Date,
): Promise<void> {
  await db.query(
    `INSERT INTO custom_objects (app_id, id, name, size_mb, schema, created_at, modified_at) VALUES ($1, $2, $3, $4, $5, $6, $6)`,
    [appId, o.id, o.name, o.sizeMb, o.schema, at],
  );
}

/** Whether there was such an object to delete. */
export async function deleteObject(db: Queryable, appId: number, id: string): Promise<boolean> {
  const r = await db.query('DELETE FROM custom_objects WHERE app_id = $1 AND id = $2 RETURNING id', [
    appId,
    id,
  ]);
  return r.rows.length > 0;
}

/** The object with its new schema; undefined when there is no such object. */
export async function setObjectSchema(
  db: Queryable,
  appId: number,
  id: string,
  schema: string,
  at: Date,
): Promise<ObjectRow | undefined> {
  const r = await db.query<ObjectRow>(
    'UPDATE custom_objects SET schema = $3, modified_at = $4 WHERE app_id = $1 AND id = $2 RETURNING *',
    [appId, id, schema, at],
  );
  return r.rows[0];
}
