import type { Config } from '../config.ts';
import { AppError } from './app-error.ts';

/**
 * A page of the console to put in a mail: on the caller's console origin when it is one of the
 * configured ones, else on the first of them. Links never point at a foreign host.
 */
export function consolePageFor(config: Config, origin: string | undefined, pathname: string): URL {
  const base = origin && config.consoleOrigins.includes(origin) ? origin : config.consoleOrigins[0];
  return new URL(pathname, base ?? `http://localhost:${config.port}`);
}

/** A console page the client named (`url`), accepted only on a configured console origin. */
export function allowedConsolePage(config: Config, url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new AppError('foreignConsoleUrl');
  }
  if (!config.consoleOrigins.includes(parsed.origin)) throw new AppError('foreignConsoleUrl');
  parsed.search = '';
  parsed.hash = '';
  return parsed;
}
