import { type ConsoleLink, consolePaths } from '@sac/contract/console-paths';
import type { Config } from '../config.ts';
import { AppError } from './app-error.ts';

/** The console's origin for a mail: the caller's when it is a configured one, else the first of them. */
export function consoleOrigin(config: Config, origin?: string): string {
  const base = origin && config.consoleOrigins.includes(origin) ? origin : config.consoleOrigins[0];
  return base ?? `http://localhost:${config.port}`;
}

/**
 * A page of the console to put in a mail, built by the contract's table of console paths
 * (`consolePaths.x(…)`): on the caller's console origin when it is one of the configured ones,
 * else on the first of them. Links never point at a foreign host.
 */
export function consolePageFor(config: Config, origin: string | undefined, link: ConsoleLink): URL {
  return new URL(link, consoleOrigin(config, origin));
}

/** The console's reset route (spec section 3): the login screen, which reads vtype and vtoken. */
const CONSOLE_RESET_PATH = consolePaths.login.path;

/**
 * The page a reset link is built on: the console's reset route on the origin of the client's
 * `url`, accepted only when `url` is exactly that route on a configured console origin (its query
 * and fragment are dropped: the link's query is ours). Any other page, host or spelling is 906,
 * so the caller can pick which of the console's own origins, nothing else.
 */
export function consoleResetPage(config: Config, url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new AppError('foreignConsoleUrl');
  }
  if (!config.consoleOrigins.includes(parsed.origin) || parsed.pathname !== CONSOLE_RESET_PATH)
    throw new AppError('foreignConsoleUrl');
  return consolePageFor(config, parsed.origin, consolePaths.login());
}
