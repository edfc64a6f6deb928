import fs from 'node:fs';
import readline from 'node:readline';
import { verifyExport } from '../modules/audit/audit.service.ts';

/**
 * `npm run audit:verify -- --key KEY.pem FILE`: checks an exported audit trail (CSV or JSON
 * lines, by its extension) against the public key the console shows under Verification key:
 * every row's hash chain, the row count and head in the seal, and the seal's Ed25519 signature.
 * Exits 0 when the file is as exported, 1 when it is not (and says where), 2 on wrong usage.
 */
const args = process.argv.slice(2);
const keyAt = args.indexOf('--key');
const keyFile = keyAt >= 0 ? args[keyAt + 1] : undefined;
const file = args.find((_, i) => i !== keyAt && i !== keyAt + 1);
if (!keyFile || !file) {
  console.error('Usage: npm run audit:verify -- --key KEY.pem FILE.csv|FILE.jsonl');
  process.exit(2);
}
const format = file.endsWith('.csv') ? 'csv' : 'jsonl';
const lines = readline.createInterface({
  input: fs.createReadStream(file, 'utf8'),
  crlfDelay: Number.POSITIVE_INFINITY,
});
const verdict = await verifyExport(format, lines, fs.readFileSync(keyFile, 'utf8'));
if (verdict.ok) {
  console.log(
    `${file}: intact, ${verdict.rows === 1 ? '1 row' : `${verdict.rows} rows`}, chain head ${verdict.head}, signature verified.`,
  );
} else {
  console.error(`${file}: NOT as exported, ${verdict.reason} (after ${verdict.row} rows).`);
  process.exit(1);
}
