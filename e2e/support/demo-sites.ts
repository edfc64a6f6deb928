import fs from 'node:fs';
import path from 'node:path';
import { DATA_DIR } from './env.ts';

/**
 * A named demo site's API key and secret: generated on the server's first start and kept in its
 * data directory (demo-sign-in.json), never fixed in the source.
 */
export function demoSite(name: string): { apiKey: string; secret: string } {
  const signIn = JSON.parse(fs.readFileSync(path.join(DATA_DIR, 'demo-sign-in.json'), 'utf8')) as {
    sites: { name: string; apiKey: string; secret: string }[];
  };
  const site = signIn.sites.find((s) => s.name === name);
  if (!site) throw new Error(`no demo site ${name} in ${DATA_DIR}/demo-sign-in.json`);
  return site;
}

/** Ada Lovelace, the demo customer who owns analytical-engine (apps/api/src/seed/customer-seed.ts). */
export const ADA = { uid: 'ada00000-0000-4000-8000-000000001815', email: 'ada.lovelace@analytical.example' };
