import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ENDPOINT_ROUTES, type EndpointRoute } from './endpoint-routes.ts';
import { ENDPOINTS, type EndpointDef } from './endpoints.ts';

describe('ENDPOINT_ROUTES and ENDPOINTS', () => {
  it('have identical keys, in the same order', () => {
    expect(Object.keys(ENDPOINTS)).toEqual(Object.keys(ENDPOINT_ROUTES));
  });

  it('agree on id, method, path, access, impersonation permission, step-up, scope rule and plain link of every endpoint (the routes table is the source)', () => {
    for (const [id, route] of Object.entries(ENDPOINT_ROUTES)) {
      const full = ENDPOINTS[id as keyof typeof ENDPOINTS] as EndpointRoute;
      expect(route.id).toBe(id);
      const { id: i, method, path, access, impersonation, stepUp, scope, plainLink } = full;
      expect({
        id: i,
        method,
        path,
        access,
        ...(impersonation ? { impersonation } : {}),
        ...(stepUp ? { stepUp } : {}),
        ...(scope ? { scope } : {}),
        ...(plainLink ? { plainLink } : {}),
      }).toEqual(route);
    }
  });

  it('open to an impersonation only calls of one site (an appId in the query), with a customer permission', () => {
    const customerPermissions = new Set([
      'ViewData',
      'EditData',
      'ManageSettings',
      'ManageSite',
      'ManageBilling',
      'ManageTeam',
    ]);
    for (const route of Object.values(ENDPOINT_ROUTES) as EndpointRoute[]) {
      if (route.impersonation === undefined) continue;
      expect(customerPermissions.has(route.impersonation), route.id).toBe(true);
      const query = (ENDPOINTS[route.id as keyof typeof ENDPOINTS] as EndpointDef).query;
      expect(query?.shape && 'appId' in query.shape, route.id).toBe(true);
    }
  });

  it('give every endpoint a summary, a tag and a 200 answer', () => {
    for (const e of Object.values(ENDPOINTS)) {
      expect(e.summary.length).toBeGreaterThan(0);
      expect(e.tag.length).toBeGreaterThan(0);
      expect(Object.keys(e.responses)).toContain('200');
    }
  });

  it('keeps the routes table free of runtime imports but its own parts (the console loads it without zod)', () => {
    const dir = new URL('.', import.meta.url);
    const files = fs.readdirSync(dir).filter((f) => /^endpoint-routes(-[a-z-]+)?\.ts$/.test(f));
    expect(files.length).toBeGreaterThan(1);
    for (const file of files) {
      const src = fs.readFileSync(new URL(file, dir), 'utf8');
      const imports = src.split('\n').filter((l) => /^import\b/.test(l));
      const runtime = imports.filter((l) => !l.startsWith('import type '));
      expect(
        runtime.every((l) => /from '\.\/endpoint-routes-[a-z-]+\.ts';$/.test(l)),
        `${file}: ${runtime.join('; ')}`,
      ).toBe(true);
    }
  });
});
