import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { Db, Queryable } from '../db/db.ts';

/** Everything /metrics shows; one registry per app, so tests can build many apps in one process. */
export interface AppMetrics {
  registry: Registry;
  httpRequests: Counter<'method' | 'route' | 'status_code'>;
  httpDuration: Histogram<'method' | 'route' | 'status_code'>;
  httpErrors: Counter<'method' | 'route' | 'status_code'>;
  dbQueries: Counter<'engine' | 'outcome'>;
  dbDuration: Histogram<'engine'>;
  jobRuns: Counter<'job' | 'outcome'>;
  expiryNotices: Counter<string>;
  trailStreamRows: Counter<'sink'>;
  trailStreamLag: Gauge<'sink'>;
  webhookDeliveries: Counter<'outcome'>;
}

const SECONDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export function createMetrics(db: Db): AppMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const labels = ['method', 'route', 'status_code'] as const;
  const metrics: AppMetrics = {
    registry,
    httpRequests: new Counter({
      name: 'sac_http_requests_total',
      help: 'HTTP requests answered, by method, route pattern and status.',
      labelNames: labels,
      registers: [registry],
    }),
    httpDuration: new Histogram({
      name: 'sac_http_request_duration_seconds',
      help: 'Time from receiving a request to sending its answer, by method, route pattern and status.',
      labelNames: labels,
      buckets: SECONDS,
      registers: [registry],
    }),
    httpErrors: new Counter({
      name: 'sac_http_request_errors_total',
      help: 'Requests answered with a server error (5xx), by method, route pattern and status.',
      labelNames: labels,
      registers: [registry],
    }),
    dbQueries: new Counter({
      name: 'sac_db_queries_total',
      help: 'Database statements run, by engine and outcome (ok, error).',
      labelNames: ['engine', 'outcome'],
      registers: [registry],
    }),
    dbDuration: new Histogram({
      name: 'sac_db_query_duration_seconds',
      help: 'Time of a database statement, pool wait included, by engine.',
      labelNames: ['engine'],
      buckets: SECONDS,
      registers: [registry],
    }),
    jobRuns: new Counter({
      name: 'sac_job_runs_total',
      help: 'Ticks of periodic jobs on this instance: ran (this instance held the lease), skipped (another did, or the previous run was still going), failed.',
      labelNames: ['job', 'outcome'],
      registers: [registry],
    }),
    expiryNotices: new Counter({
      name: 'sac_impersonation_expiry_notices_total',
      help: 'Expired impersonation grants announced by this instance.',
      registers: [registry],
    }),
    trailStreamRows: new Counter({
      name: 'sac_trail_stream_rows_total',
      help: 'Staff trail rows this instance sent to the SIEM, by sink (syslog, http).',
      labelNames: ['sink'],
      registers: [registry],
    }),
    trailStreamLag: new Gauge({
      name: 'sac_trail_stream_lag_seconds',
      help: 'How far the SIEM stream is behind the trail, by sink: the age of the last row sent while rows still wait, 0 once caught up.',
      labelNames: ['sink'],
      registers: [registry],
    }),
    webhookDeliveries: new Counter({
      name: 'sac_webhook_attempts_total',
      help: 'Webhook delivery attempts this instance made, by outcome (delivered: a 2xx answer; failed: anything else).',
      labelNames: ['outcome'],
      registers: [registry],
    }),
  };
  if (db.poolStats) {
    const stats = db.poolStats.bind(db);
    new Gauge({
      name: 'sac_db_pool_connections',
      help: 'PostgreSQL pool connections by state: total (open), idle, waiting (requests queued for one), max.',
      labelNames: ['state'],
      registers: [registry],
      collect() {
        const s = stats();
        this.set({ state: 'total' }, s.total);
        this.set({ state: 'idle' }, s.idle);
        this.set({ state: 'waiting' }, s.waiting);
        this.set({ state: 'max' }, s.max);
      },
    });
  }
  return metrics;
}

/** The same database, each statement counted and timed (PGlite has no pool: this is its gauge). */
export function instrumentDb(db: Db, m: AppMetrics): Db {
  const engine = db.kind;
  const timed =
    <A extends unknown[], R>(fn: (...a: A) => Promise<R>) =>
    async (...a: A): Promise<R> => {
      const end = m.dbDuration.startTimer({ engine });
      try {
        const out = await fn(...a);
        m.dbQueries.inc({ engine, outcome: 'ok' });
        return out;
      } catch (e) {
        m.dbQueries.inc({ engine, outcome: 'error' });
        throw e;
      } finally {
        end();
      }
    };
  const wrap = (q: Queryable): Queryable => ({
    query: timed(q.query.bind(q)) as Queryable['query'],
    exec: timed(q.exec.bind(q)),
    authChanged: () => q.authChanged?.(),
    afterCommit: (fn) => (q.afterCommit ? q.afterCommit(fn) : fn()),
  });
  return {
    ...db,
    ...wrap(db),
    kind: db.kind,
    transaction: (fn) => db.transaction((tx) => fn(wrap(tx))),
    close: () => db.close(),
  };
}
