import type { Dashboard } from '@sac/contract/dashboard';
import { useQuery } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client.ts';

const dashboardKeys = { all: ['dashboard'] as const };

/** GET /admin/dashboard: read on every visit and again each minute while the screen is open. */
export const useDashboard = () =>
  useQuery({
    queryKey: dashboardKeys.all,
    queryFn: ({ signal }) => callApi('dashboard', { signal }),
    staleTime: 0,
    refetchInterval: 60_000,
  });

export type { Dashboard };
