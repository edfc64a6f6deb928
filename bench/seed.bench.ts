import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../apps/api/src/config.ts';
import type { Db } from '../apps/api/src/db/db.ts';
import { migrate } from '../apps/api/src/db/migrate.ts';
import { openConfiguredDb } from '../apps/api/src/db/open.ts';
import { SEARCHED_TABLES } from '../apps/api/src/db/searched-tables.ts';
import { seedScale } from '../apps/api/src/seed/seed-scale-cli.ts';
import { freshDir } from './support.ts';

/*
 * `seed:scale` beside its floor, a plain COPY of the same rows (issue 31: seeding 1M on PostgreSQL
 * in at most 4 minutes). On BENCH_SEED_DATABASE_URL's server (default the local one), in fresh
 * databases named BENCH_SEED_DATABASE (default sac_bench_seed) and <it>_copy, both dropped after:
 *   seed   seed:scale's own code at BENCH_SEED_CUSTOMERS (default 1,000,000) on a migrated database,
 *          its insert and its VACUUM ANALYZE timed apart;
 *   floor  `COPY customers/sites FROM STDIN` (psql's \copy, one transaction) of the very rows the
 *          seed wrote (taken out with COPY TO first, not timed) into a second migrated database,
 *          with every trigger and index as they are, then the same VACUUM ANALYZE;
 *   bare   the same COPY into tables of the same columns without index, key or trigger: what the
 *          disk and the parser cost alone.
 * The derived tables (addresses, name keys, site owner keys, dashboard counters) of the seed and
 * the floor are compared by count: both ways must write the same rows.
 */

const CUSTOMERS = Number(process.env.BENCH_SEED_CUSTOMERS ?? 1_000_000);
const BASE = process.env.BENCH_SEED_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const NAME = process.env.BENCH_SEED_DATABASE ?? 'sac_bench_seed';
/** The target: 1M customers seeded (insert and VACUUM ANALYZE) in 4 minutes. */
const TARGET_S = 240;
const TARGET_CUSTOMERS = 1_000_000;
const TABLES = ['customers', 'sites'] as const;
const DERIVED = [
  'customer_addresses',
  'customer_name_keys',
  'site_owner_keys',
  'dashboard_days',
  'dashboard_site_counts',
];

const urlOf = (db: string) => {
  const u = new URL(BASE);
  u.pathname = `/${db}`;
  return u.toString();
};
const open = (url: string) =>
  openConfiguredDb(loadConfig({ DATABASE_URL: url, DATA_DIR: freshDir('seed-admin') }));
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

function psql(url: string, args: string[]): string {
  const r = spawnSync('psql', ['-X', '-q', '-v', 'ON_ERROR_STOP=1', '-d', url, ...args], {
    encoding: 'utf8',
    maxBuffer: 1 << 24,
  });
  if (r.status !== 0) throw new Error(`psql failed: ${r.stderr}`);
  return r.stdout;
}

/** Runs a psql script in one transaction; answers its wall time in seconds (psql's start included, ~10 ms). */
function timedScript(url: string, file: string, script: string): number {
  fs.writeFileSync(file, script);
  const t = performance.now();
  psql(url, ['-1', '-f', file]);
  return (performance.now() - t) / 1000;
}

async function vacuumAnalyze(db: Db, tables: readonly string[]): Promise<number> {
  const t = performance.now();
  for (const table of tables) await db.exec(`VACUUM (ANALYZE) ${table}`);
  return (performance.now() - t) / 1000;
}

async function counts(db: Db, tables: readonly string[]): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const t of tables)
    out[t] = Number((await db.query<{ n: string }>(`SELECT count(*) AS n FROM ${t}`)).rows[0]!.n);
  return out;
}

interface Leg {
  label: string;
  rows: number;
  insertS: number;
  vacuumS: number;
}

/** The legs as a table, each beside the floor, and the target's verdict. */
function report(legs: Leg[], seeded: Record<string, number>): void {
  const rows = seeded.customers! + seeded.sites!;
  console.log(
    `${fmt(seeded.customers!)} customers and ${fmt(seeded.sites!)} sites (${fmt(rows)} rows; derived: ` +
      `${DERIVED.map((t) => `${t} ${fmt(seeded[t]!)}`).join(', ')})`,
  );
  console.log('| leg | insert s | rows/s | VACUUM ANALYZE s | total s | floor ÷ this (total) |');
  console.log('|---|---|---|---|---|---|');
  const floorTotal = legs[1]!.insertS + legs[1]!.vacuumS;
  for (const l of legs) {
    const total = l.insertS + l.vacuumS;
    console.log(
      `| ${l.label} | ${l.insertS.toFixed(1)} | ${fmt(l.rows / l.insertS)} | ${l.vacuumS.toFixed(1)} | ` +
        `${total.toFixed(1)} | ${(floorTotal / total).toFixed(2)} |`,
    );
  }
  const seedTotal = legs[0]!.insertS + legs[0]!.vacuumS;
  const at1M = (seedTotal * TARGET_CUSTOMERS) / CUSTOMERS;
  console.log(
    `seed ÷ floor: insert ×${(legs[0]!.insertS / legs[1]!.insertS).toFixed(2)}, total ` +
      `×${(seedTotal / floorTotal).toFixed(2)} (floor ÷ seed ${(floorTotal / seedTotal).toFixed(2)}); ` +
      (CUSTOMERS === TARGET_CUSTOMERS
        ? `target ≤ ${TARGET_S / 60} min at 1M: ${seedTotal <= TARGET_S ? 'met' : 'MISSED'} (${seedTotal.toFixed(0)} s)`
        : `at 1M by linear estimate ${at1M.toFixed(0)} s (target ≤ ${TARGET_S} s: ${at1M <= TARGET_S ? 'met' : 'MISSED'}; measure at 1M to judge)`),
  );
}

export async function benchSeed(): Promise<void> {
  const dir = freshDir('seed');
  const copyDb = `${NAME}_copy`;
  const admin = await open(BASE);
  const legs: Leg[] = [];
  try {
    for (const db of [NAME, copyDb]) {
      await admin.query(`DROP DATABASE IF EXISTS ${db}`);
      await admin.query(`CREATE DATABASE ${db}`);
    }
  } catch (e) {
    console.log(`PostgreSQL: skipped — ${(e as Error).message}`);
    await admin.close();
    return;
  }
  try {
    // seed: seed:scale's code on a migrated database, as `npm run seed:scale` runs it
    const seedDb = await open(urlOf(NAME));
    let seeded: Record<string, number>;
    try {
      await migrate(seedDb);
      const s = await seedScale(seedDb, { customers: CUSTOMERS, chunk: 50_000, quiet: true });
      legs.push({ label: 'seed:scale (SQL-generated rows, 50k a transaction)', ...s });
      seeded = await counts(seedDb, [...TABLES, ...DERIVED]);
    } finally {
      await seedDb.close();
    }

    // the seed's rows out to files (not timed), every column COPY writes (generated ones aside)
    const files: Record<string, { path: string; columns: string }> = {};
    for (const table of TABLES) {
      const columns = psql(urlOf(NAME), [
        '-At',
        '-c',
        `SELECT string_agg(quote_ident(column_name), ', ' ORDER BY ordinal_position) FROM information_schema.columns
          WHERE table_schema = 'public' AND table_name = '${table}' AND is_generated = 'NEVER'`,
      ]).trim();
      const file = path.join(dir, `${table}.copy`);
      psql(urlOf(NAME), ['-c', `\\copy ${table} (${columns}) TO '${file}'`]);
      files[table] = { path: file, columns };
    }
    const copyScript = (schema: string) =>
      TABLES.map((t) => `\\copy ${schema}.${t} (${files[t]!.columns}) FROM '${files[t]!.path}'\n`).join('');
    const rows = seeded.customers! + seeded.sites!;

    // floor: COPY of the same rows into a migrated database, triggers and indexes as they are
    const floorDb = await open(urlOf(copyDb));
    try {
      await migrate(floorDb);
      const insertS = timedScript(urlOf(copyDb), path.join(dir, 'floor.sql'), copyScript('public'));
      const vacuumS = await vacuumAnalyze(floorDb, SEARCHED_TABLES);
      legs.push({ label: 'floor: COPY FROM STDIN, schema as migrated', rows, insertS, vacuumS });
      const copied = await counts(floorDb, [...TABLES, ...DERIVED]);
      for (const t of Object.keys(seeded))
        if (seeded[t] !== copied[t])
          console.log(`  MISMATCH ${t}: seed ${seeded[t]} rows, COPY ${copied[t]}`);

      // bare: the same COPY into tables of the same columns, no index, key or trigger
      await floorDb.exec(
        `CREATE SCHEMA bare; ${TABLES.map((t) => `CREATE TABLE bare.${t} (LIKE public.${t});`).join(' ')}`,
      );
      const bareS = timedScript(urlOf(copyDb), path.join(dir, 'bare.sql'), copyScript('bare'));
      const bareVacuumS = await vacuumAnalyze(
        floorDb,
        TABLES.map((t) => `bare.${t}`),
      );
      legs.push({
        label: 'COPY into bare tables (no index, key, trigger)',
        rows,
        insertS: bareS,
        vacuumS: bareVacuumS,
      });
    } finally {
      await floorDb.close();
    }

    report(legs, seeded);
  } finally {
    if (process.env.BENCH_SEED_KEEP !== '1')
      for (const db of [NAME, copyDb]) await admin.query(`DROP DATABASE IF EXISTS ${db}`);
    await admin.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
