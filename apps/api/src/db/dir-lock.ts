import fs from 'node:fs';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The data directory's lock is held by a live process: its message is the one line an operator
 * needs (which process, which file, what to do), so a start prints it alone, without a stack.
 */
export class DataDirInUse extends Error {}

/**
 * Takes the lock file at `lockPath` for this process, or throws when a live process holds it.
 * A lock left by a dead process is taken over. Returns the function that releases it.
 */
export function acquireDirLock(lockPath: string): () => void {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = fs.openSync(lockPath, 'wx', 0o600);
      fs.writeSync(fd, String(process.pid));
      fs.closeSync(fd);
      const release = () => {
        try {
          if (fs.readFileSync(lockPath, 'utf8') === String(process.pid)) fs.unlinkSync(lockPath);
        } catch {
          // already gone
        }
        process.off('exit', release);
      };
      process.on('exit', release);
      return release;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const holder = Number(fs.readFileSync(lockPath, 'utf8'));
      if (holder && alive(holder)) {
        throw new DataDirInUse(
          `The embedded database is in use by another process (pid ${holder}); lock file ${lockPath}. Stop that process, or set DATA_DIR or DATABASE_URL.`,
        );
      }
      fs.rmSync(lockPath, { force: true });
    }
  }
  throw new Error(`Could not take the database lock ${lockPath}`);
}
