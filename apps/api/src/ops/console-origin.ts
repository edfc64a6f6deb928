import type { Queryable } from '../db/db.ts';
import { execute, firstRow, qb } from '../db/sql.ts';

/** The app_meta key under which a running server keeps the console's origin. */
const KEY = 'console_origin';

/**
 * Kept by the server at each start: the origin its console answers on (the first of
 * CONSOLE_ORIGINS, else http://localhost:PORT). `npm run create-admin`, run in another shell
 * without the server's PORT or CONSOLE_ORIGINS, builds its link on it instead of a guessed one.
 */
export async function rememberConsoleOrigin(db: Queryable, origin: string): Promise<void> {
  await execute(
    db,
    qb
      .insertInto('app_meta')
      .values({ key: KEY, value: origin })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value: origin })),
  );
}

/** The origin the server last started on wrote, or undefined when none has started on this database. */
export async function rememberedConsoleOrigin(db: Queryable): Promise<string | undefined> {
  const row = await firstRow(db, qb.selectFrom('app_meta').select('value').where('key', '=', KEY));
  return row?.value;
}
