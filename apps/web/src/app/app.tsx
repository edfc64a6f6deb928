import { QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { RouterProvider } from 'react-router';
import { OfflineOverlay } from '../components/offline-overlay.tsx';
import { Toaster } from '../components/toaster.tsx';
import { I18nProvider } from '../lib/i18n.tsx';
import { createQueryClient } from '../lib/query-client.ts';
import { createRouter } from './router.tsx';

/** Providers, router, toasts and the offline overlay. */
export function App() {
  const [queryClient] = useState(createQueryClient);
  const [router] = useState(createRouter);
  return (
    <I18nProvider>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
        <Toaster />
        <OfflineOverlay />
      </QueryClientProvider>
    </I18nProvider>
  );
}
