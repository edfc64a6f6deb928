import { ERRORS } from '@sac/contract/errors';
import { loadConfig } from '../config.ts';
import { migrate } from '../db/migrate.ts';
import { openConfiguredDbOrExit } from '../db/open.ts';
import { AppError } from '../lib/app-error.ts';
import { createAdminFromCommandLine } from '../modules/team/team.service.ts';
import { rememberedConsoleOrigin } from './console-origin.ts';

/**
 * `npm run create-admin -- EMAIL [FULL NAME]`: creates a SuperAdmin on the configured database
 * (DATABASE_URL, else DATA_DIR's) and prints a single-use link, valid 24 hours, where they set
 * their password. The link is on the first CONSOLE_ORIGINS origin when this shell sets it, else on
 * the origin the server wrote at its last start (its real port: console-origin.ts), else on
 * localhost:PORT.
 */
const [email, ...nameParts] = process.argv.slice(2);
if (!email || email.startsWith('-')) {
  console.error('Usage: npm run create-admin -- EMAIL [FULL NAME]');
  process.exit(2);
}
const config = loadConfig();
const db = await openConfiguredDbOrExit(config);
let code = 0;
try {
  await migrate(db);
  const running = process.env.CONSOLE_ORIGINS ? undefined : await rememberedConsoleOrigin(db);
  const made = await createAdminFromCommandLine(
    db,
    running ? { ...config, consoleOrigins: [running] } : config,
    { email, name: nameParts.join(' ') },
    new Date(),
  );
  console.log(
    [
      `Created the SuperAdmin ${email}.`,
      'Send them this single-use link to set their password (valid 24 hours):',
      `  ${made.link}`,
    ].join('\n'),
  );
} catch (e) {
  if (!(e instanceof AppError)) throw e;
  console.error(e.errorName === 'superUserExists' ? `${email}: ${ERRORS.superUserExists.text}` : e.message);
  code = 1;
} finally {
  await db.close();
}
process.exit(code);
