import fs from 'node:fs';
import path from 'node:path';

/**
 * New files of this process are readable and writable by its user only (0600, directories 0700):
 * DATA_DIR holds the embedded database, the field encryption key, mails with reset links and the
 * demo password. Set first thing at start, before any file is created.
 */
export function privateUmask(): void {
  process.umask(0o077);
}

/**
 * Makes `dir` and everything under it its owner's only: directories 0700, files 0600. Symbolic
 * links are not followed (what they point at is not ours to change). Entries already right are
 * not touched, so a start over a large database costs one lstat per file. Returns how many were
 * changed; an entry that cannot be changed (another user's) is reported through `warn`.
 */
export function restrictDataDir(dir: string, warn: (msg: string) => void = console.warn): number {
  let changed = 0;
  const walk = (p: string) => {
    let st: fs.Stats;
    try {
      st = fs.lstatSync(p);
    } catch {
      return; // gone meanwhile, or never there
    }
    if (st.isSymbolicLink()) return;
    const want = st.isDirectory() ? 0o700 : 0o600;
    if ((st.mode & 0o777) !== want) {
      try {
        fs.chmodSync(p, want);
        changed += 1;
      } catch (err) {
        warn(`Could not make ${p} private (mode ${want.toString(8)}): ${(err as Error).message}`);
      }
    }
    if (st.isDirectory()) {
      let entries: string[] = [];
      try {
        entries = fs.readdirSync(p);
      } catch {
        return;
      }
      for (const e of entries) walk(path.join(p, e));
    }
  };
  walk(dir);
  return changed;
}
