import { AppError } from './app-error.ts';

/**
 * Exports at once on this instance. Counted synchronously before any await, so concurrent calls
 * cannot pass the limit together. Past it: 429 (979) with `busy` as its text, else the error's.
 */
export function exportLimiter(limit: number, busy?: string) {
  let running = 0;
  return {
    take(): () => void {
      if (running >= limit) {
        const e = new AppError('exportBusy', busy);
        e.retryAfterSeconds = 30;
        throw e;
      }
      running++;
      let released = false;
      return () => {
        if (!released) {
          released = true;
          running--;
        }
      };
    },
  };
}
