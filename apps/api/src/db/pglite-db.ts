import fs from 'node:fs';
import path from 'node:path';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import {
  channelListeners,
  countedTransaction,
  countingAuthChanges,
  SESSION_SETTINGS,
} from './connection-common.ts';
import type { Db, Queryable } from './db.ts';
import { acquireDirLock } from './dir-lock.ts';
import { onRawNotification, runStatement } from './pglite-statement.ts';
import { statementHook, type TxMark } from './statement-log.ts';

export const PGLITE_EXTENSIONS = { pg_trgm };

/**
 * PGlite, or one of its transactions (`transaction`; `mark` for statement recording), as a
 * Queryable: statements run in one pass (pglite-statement.ts), scripts as PGlite runs them.
 */
const pgliteRunner = (pglite: PGlite, transaction?: Transaction, mark?: TxMark): Queryable => {
  const q = transaction ?? pglite;
  return {
    query: async <T>(sql: string, params?: unknown[]) => {
      // as PGlite's own query() on an ended transaction or a closed database
      if (q.closed) throw new Error(transaction ? 'Transaction is closed' : 'PGlite is closed');
      statementHook.sink?.statement(sql, mark);
      return runStatement<T>(pglite, sql, params ?? [], transaction !== undefined);
    },
    exec: async (sql) => {
      statementHook.sink?.statement(sql, mark);
      await q.exec(sql);
    },
  };
};

/**
 * Listeners to the database's notifications (Db.onNotification): the statements of this process
 * are the only writers, so a commit's notification is heard here, from PGlite's own parse of an
 * answer (a transaction's COMMIT) or from runStatement's (an autocommit statement).
 */
function pgliteNotifications(pglite: PGlite) {
  const channels = channelListeners((channel) => {
    void pglite.listen(channel, () => channels.tell(channel)).catch(() => {});
  });
  onRawNotification(pglite, channels.tell);
  return channels.listen;
}

export function wrapPglite(pglite: PGlite, onClose?: () => void): Db {
  let generation = 0;
  const bump = () => {
    generation++;
  };
  const counted = countingAuthChanges(pgliteRunner(pglite), bump);
  return {
    kind: 'pglite',
    authGeneration: () => generation,
    onNotification: pgliteNotifications(pglite),
    query: counted.query,
    exec: counted.exec,
    authChanged: counted.authChanged,
    transaction: (fn) =>
      countedTransaction(
        (run, mark) => pglite.transaction((tx) => run(pgliteRunner(pglite, tx, mark))),
        fn,
        bump,
      ),
    dumpDataDir: () => pglite.dumpDataDir('none'),
    close: async () => {
      await pglite.close();
      onClose?.();
    },
  };
}

/** PGlite in `dir`, guarded by a lock so two processes never open one directory. */
export async function openPgliteDir(
  dir: string,
  opts: { template?: () => string | undefined } = {},
): Promise<Db> {
  fs.mkdirSync(dir, { recursive: true });
  const release = acquireDirLock(path.join(dir, '..', `${path.basename(dir)}.lock`));
  try {
    // A new directory starts as a copy of the template (a migrated, closed cluster), if given:
    // copied aside and renamed into place, so a failed copy never leaves half a cluster.
    let fromTemplate = false;
    if (!fs.existsSync(path.join(dir, 'PG_VERSION'))) {
      const template = opts.template?.();
      if (template) {
        const partial = `${dir}.copying-${process.pid}`;
        fs.rmSync(partial, { recursive: true, force: true });
        fs.cpSync(template, partial, { recursive: true });
        fs.rmSync(dir, { recursive: true, force: true });
        fs.renameSync(partial, dir);
        fromTemplate = true;
      }
    }
    const pglite = await PGlite.create({ dataDir: dir, extensions: PGLITE_EXTENSIONS });
    await pglite.exec(SESSION_SETTINGS);
    return { ...wrapPglite(pglite, release), fromTemplate };
  } catch (e) {
    release();
    throw e;
  }
}

/** PGlite in memory, optionally starting from a dumped data directory (the test template). */
export async function openPgliteMemory(loadDataDir?: Blob): Promise<Db> {
  const pglite = await PGlite.create({
    extensions: PGLITE_EXTENSIONS,
    ...(loadDataDir ? { loadDataDir } : {}),
  });
  await pglite.exec(SESSION_SETTINGS);
  return wrapPglite(pglite);
}
