import { loadConsoleCatalog } from './lib/i18n.tsx';

// In the browser the router loads the sections' phrases with the shell; unit tests render screens
// directly, so every namespace is loaded before they run.
await loadConsoleCatalog();
