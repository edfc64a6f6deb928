// First: sets zod up for the CSP before any schema is used.
import './lib/zod-jitless.ts';
// Second: the global sheet (tokens, reset, layout) comes before every component's module.
import './styles/app.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { InitFailed } from './components/init-failed.tsx';
import { loadRuntimeConfig, resolveApiBase, setApiBase } from './lib/api-base.ts';
import { setBranding } from './lib/footer-links.ts';
import { loadStoredLanguage } from './lib/i18n.tsx';
import { migrateLegacyStorage } from './lib/storage.ts';
import { startTheme } from './lib/theme.ts';

/**
 * Start-up: move legacy storage keys, load /runtime-config.json (and the chosen language's texts),
 * derive the API address, render.
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
  // The language chosen on the sign-in screen downloads while the config does.
  const language = loadStoredLanguage();
  try {
    const config = await loadRuntimeConfig();
    setApiBase(resolveApiBase(config, window.location.hostname));
    setBranding(config);
  } catch {
    root.render(<InitFailed />);
    return;
  }
  await language;
  root.render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}

void start();
