import type { Config } from './config.ts';
import { positive } from './config-number.ts';

/**
 * The settings of what the console sends out: the staff trail to a SIEM (TRAIL_*) and webhooks
 * (WEBHOOK_*), each checked at start with a sentence that names the setting.
 */

/** A sink's URL of one of the given schemes, or a start that says what is wrong with it. */
function sinkUrl(name: string, v: string | undefined, schemes: string[]): URL | undefined {
  if (!v) return undefined;
  let url: URL;
  try {
    url = new URL(v);
  } catch {
    throw new Error(`${name} must be a URL (${schemes.join(' or ')}), got '${v}'`);
  }
  if (!schemes.includes(url.protocol.slice(0, -1)) || !url.hostname)
    throw new Error(
      `${name} must be a ${schemes.map((s) => `${s}://host:port`).join(' or ')} URL, got '${v}'`,
    );
  return url;
}

/** The HTTP collector: https, or plain http only on this machine (its token goes in a header). */
function collectorUrl(v: string | undefined): URL | undefined {
  const url = sinkUrl('TRAIL_HTTP_URL', v, ['https', 'http']);
  const local = ['localhost', '127.0.0.1', '[::1]'].includes(url?.hostname ?? '');
  if (url?.protocol === 'http:' && !local)
    throw new Error(`TRAIL_HTTP_URL must be https (its token would cross the network in clear), got '${v}'`);
  return url;
}

export function trailStreamOf(env: NodeJS.ProcessEnv): Config['trailStream'] {
  return {
    syslogUrl: sinkUrl('TRAIL_SYSLOG_URL', env.TRAIL_SYSLOG_URL, ['tcp', 'tls']),
    syslogCaFile: env.TRAIL_SYSLOG_CA_FILE || undefined,
    httpUrl: collectorUrl(env.TRAIL_HTTP_URL),
    httpToken: env.TRAIL_HTTP_TOKEN || undefined,
    everyMs: positive('TRAIL_STREAM_SECONDS', env.TRAIL_STREAM_SECONDS, 1) * 1000,
  };
}

export function webhooksOf(env: NodeJS.ProcessEnv): Config['webhooks'] {
  const hours = positive('WEBHOOK_PAUSE_AFTER_HOURS', env.WEBHOOK_PAUSE_AFTER_HOURS, 24);
  if (hours > 720) throw new Error(`WEBHOOK_PAUSE_AFTER_HOURS must be at most 720, got '${hours}'`);
  const days = positive('WEBHOOK_LOG_DAYS', env.WEBHOOK_LOG_DAYS, 30);
  if (days > 3650) throw new Error(`WEBHOOK_LOG_DAYS must be at most 3650, got '${days}'`);
  return {
    allowPrivate: ['1', 'true', 'yes'].includes((env.WEBHOOK_ALLOW_PRIVATE ?? '').toLowerCase()),
    pauseAfterMs: hours * 3_600_000,
    everyMs: positive('WEBHOOK_SEND_SECONDS', env.WEBHOOK_SEND_SECONDS, 1) * 1000,
    logMs: days * 86_400_000,
  };
}

/** BREAK_GLASS_ENABLED: on unless the operator says `false` (or 0, no, off). */
export function breakGlassEnabledOf(env: NodeJS.ProcessEnv): boolean {
  const v = (env.BREAK_GLASS_ENABLED ?? '').trim().toLowerCase();
  if (['', '1', 'true', 'yes', 'on'].includes(v)) return true;
  if (['0', 'false', 'no', 'off'].includes(v)) return false;
  throw new Error(`BREAK_GLASS_ENABLED must be true or false, got '${env.BREAK_GLASS_ENABLED}'`);
}
