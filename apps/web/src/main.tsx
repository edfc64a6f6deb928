// First: sets zod up for the CSP before any schema is used.
import './lib/zod-jitless.ts';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { InitFailed } from './components/init-failed.tsx';
import { loadRuntimeConfig, resolveApiBase, setApiBase } from './lib/api-base.ts';
import { setBranding } from './lib/footer-links.ts';
import { migrateLegacyStorage } from './lib/storage.ts';
import { startTheme } from './lib/theme.ts';
import './styles/app.css';

/**
 * Start-up: move legacy storage keys, load /runtime-config.json, derive the API address, render.
 * When the runtime config cannot be loaded, only the spec's full-page message is shown.
 */
async function start(): Promise<void> {
  startTheme();
  const root = createRoot(document.getElementById('root')!);
  try {
    migrateLegacyStorage();
  } catch {
    // Storage can be unavailable; the console then works without a stored session.
  }
  try {
    const config = await loadRuntimeConfig();
    setApiBase(resolveApiBase(config, window.location.hostname));
    setBranding(config);
  } catch {
    root.render(<InitFailed />);
    return;
  }
  root.render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}

void start();
