import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';
import { setApiBase } from './lib/api-base.ts';
import { loadConsoleCatalog } from './lib/i18n.tsx';
import { clearImpersonation } from './lib/impersonation-mode.ts';
import { clearToasts } from './lib/toast-store.ts';

// jsdom has the <dialog> element without its methods: opening and closing set `open`, and Escape
// not stopped at the key asks the innermost open dialog to close with a cancelable `cancel` event,
// as a browser does (the top layer and the inert page are the browser's: the browser tests try them).
if (!HTMLDialogElement.prototype.showModal) {
  HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement) {
    this.open = true;
  };
  HTMLDialogElement.prototype.close = function close(this: HTMLDialogElement) {
    this.open = false;
  };
  document.addEventListener('keydown', (e) => {
    if (e.key !== 'Escape' || e.defaultPrevented) return;
    const dialog = [...document.querySelectorAll('dialog[open]')].at(-1);
    if (dialog?.dispatchEvent(new Event('cancel', { cancelable: true })))
      (dialog as HTMLDialogElement).close();
  });
}

// findBy and waitFor wait up to 3 s for what a screen shows: a lazily loaded screen can take longer
// than the default 1 s on a busy machine, and a wait that is met returns at once.
configure({ asyncUtilTimeout: 3000 });

// In the browser each section's route loads its phrases (lib/i18n.tsx withPhrases); unit tests render screens
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
