import { z } from 'zod';

// Imported first by main.tsx, before any module that builds or parses a schema. The policy
// forbids eval: without jitless, zod probes `new Function` once and, although it catches the
// refusal, Chromium still reports a Content-Security-Policy violation for it.
z.config({ jitless: true });
