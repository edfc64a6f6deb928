import type { Dashboard } from '@sac/contract/dashboard';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client.ts';
import { useOnChange } from '../../../lib/live-changes.ts';

const dashboardKeys = { all: ['dashboard'] as const };

/**
 * GET /admin/dashboard: read on every visit, again whenever the notification stream says the
 * impersonation requests changed (asked for, consented to, decided), and each minute while the
 * screen is open (the figures the stream does not announce).
 */
export function useDashboard() {
  const queryClient = useQueryClient();
  useOnChange('impersonation', () => void queryClient.invalidateQueries({ queryKey: dashboardKeys.all }));
  return useQuery({
    queryKey: dashboardKeys.all,
    queryFn: ({ signal }) => callApi('dashboard', { signal }),
    staleTime: 0,
    refetchInterval: 60_000,
  });
}

export type { Dashboard };
