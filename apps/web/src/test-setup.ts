import { cleanup } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';
import { setApiBase } from './lib/api-base.ts';
import { loadConsoleCatalog } from './lib/i18n.tsx';
import { clearImpersonation } from './lib/impersonation-mode.ts';
import { clearToasts } from './lib/toast-store.ts';

// In the browser the router loads the sections' phrases with the shell; unit tests render screens
// directly, so every namespace is loaded before they run.
await loadConsoleCatalog();

// Every test starts signed out, outside any impersonation, against the stub API's address, and
// leaves no screen, toast, fake clock or stubbed global behind.
beforeEach(() => {
  localStorage.clear();
  clearImpersonation();
  setApiBase('http://api.test');
});
afterEach(() => {
  cleanup();
  clearToasts();
  clearImpersonation();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});
