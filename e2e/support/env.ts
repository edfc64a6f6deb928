import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Fixed for one run: the config sets them once in the runner, and workers inherit them. */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const API_PORT = Number(process.env.E2E_PORT ?? 3917);
export const SMTP_PORT = Number(process.env.E2E_SMTP_PORT ?? 2617);
export const DNS_PORT = Number(process.env.E2E_DNS_PORT ?? 2653);
export const BASE_URL = `http://127.0.0.1:${API_PORT}`;
export const DEMO_PASSWORD = 'Demo#Pass1';
export const RUN_DIR = process.env.E2E_RUN_DIR
  ? path.resolve(process.env.E2E_RUN_DIR)
  : path.join(ROOT, '.tmp', 'e2e');
export const MAIL_DIR = path.join(RUN_DIR, 'mail');
export const DATA_DIR = path.join(RUN_DIR, 'data');
/** The API server's output over the browser run (support/log-teardown.ts reads it). */
export const API_LOG = path.join(RUN_DIR, 'api.log');
export const DNS_ZONE_FILE = path.join(RUN_DIR, 'dns-zone.json');
