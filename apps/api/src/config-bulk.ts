import { BULK_ITEMS_CEILING } from '@sac/contract/bulk';
import type { Config } from './config.ts';
import { positive } from './config-number.ts';

/** The bulk actions' settings (BULK_*), checked at start with a sentence that names the setting. */
export function bulkOf(env: NodeJS.ProcessEnv): Config['bulk'] {
  const maxItems = Math.floor(positive('BULK_MAX_ITEMS', env.BULK_MAX_ITEMS, BULK_ITEMS_CEILING));
  if (maxItems > BULK_ITEMS_CEILING)
    throw new Error(`BULK_MAX_ITEMS must be at most ${BULK_ITEMS_CEILING}, got '${env.BULK_MAX_ITEMS}'`);
  const over = env.BULK_APPROVAL_OVER;
  const approvalOver = over === '0' ? 0 : Math.floor(positive('BULK_APPROVAL_OVER', over, 100));
  return {
    maxItems,
    approvalOver,
    everyMs: positive('BULK_RUN_SECONDS', env.BULK_RUN_SECONDS, 2) * 1000,
  };
}
