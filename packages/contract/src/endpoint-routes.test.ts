import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ENDPOINT_ROUTES } from './endpoint-routes.ts';
import { ENDPOINTS } from './endpoints.ts';

describe('ENDPOINT_ROUTES and ENDPOINTS', () => {
  it('have identical keys, in the same order', () => {
    expect(Object.keys(ENDPOINTS)).toEqual(Object.keys(ENDPOINT_ROUTES));
  });

  it('agree on id, method, path and access of every endpoint (the routes table is the source)', () => {
    for (const [id, route] of Object.entries(ENDPOINT_ROUTES)) {
      const full = ENDPOINTS[id as keyof typeof ENDPOINTS];
      expect(route.id).toBe(id);
      expect({ id: full.id, method: full.method, path: full.path, access: full.access }).toEqual(route);
    }
  });

  it('give every endpoint a summary, a tag and a 200 answer', () => {
    for (const e of Object.values(ENDPOINTS)) {
      expect(e.summary.length).toBeGreaterThan(0);
      expect(e.tag.length).toBeGreaterThan(0);
      expect(Object.keys(e.responses)).toContain('200');
    }
  });

  it('keeps the routes table free of runtime imports (the console loads it without zod)', () => {
    const src = fs.readFileSync(new URL('./endpoint-routes.ts', import.meta.url), 'utf8');
    const imports = src.split('\n').filter((l) => /^import\b/.test(l));
    expect(imports.every((l) => l.startsWith('import type '))).toBe(true);
  });
});
