import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { changePasswordBody, forgotPasswordBody, loginBody, resetPasswordBody } from './auth.ts';
import { ENDPOINT_LIST, ENDPOINTS, type EndpointDef } from './endpoints.ts';
import { errorEnvelopeSchema } from './errors.ts';
import { PERMISSIONS } from './permissions.ts';
import { isScopable } from './role-scopes.ts';

const bodyKeys = (e: EndpointDef): string[] =>
  e.body instanceof z.ZodObject ? Object.keys(e.body.shape).sort() : [];

describe('ENDPOINTS', () => {
  it('is not empty and lists every entry of the table', () => {
    expect(ENDPOINT_LIST.length).toBeGreaterThan(0);
    expect(ENDPOINT_LIST).toEqual(Object.values(ENDPOINTS));
  });

  it('keys every entry by its own id', () => {
    for (const [key, e] of Object.entries(ENDPOINTS)) expect(e.id).toBe(key);
  });

  it('declares the request guard errors on every endpoint: 400, and 415 where a body can be sent', () => {
    for (const e of ENDPOINT_LIST) {
      expect(e.responses[400], e.id).toBe(errorEnvelopeSchema);
      if (e.method !== 'GET') expect(e.responses[415], e.id).toBe(errorEnvelopeSchema);
    }
  });

  it('has unique ids', () => {
    const ids = ENDPOINT_LIST.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('has unique method and path pairs', () => {
    const routes = ENDPOINT_LIST.map((e) => `${e.method} ${e.path}`);
    expect(new Set(routes).size).toBe(routes.length);
  });

  it.each(ENDPOINT_LIST.map((e) => [e.id, e] as const))(
    '%s has a path under /admin/ or /account/',
    (_id, e) => {
      expect(e.path.startsWith('/admin/') || e.path.startsWith('/account/')).toBe(true);
      expect(e.path).not.toMatch(/\s|\/$|\/\//);
    },
  );

  it.each(ENDPOINT_LIST.map((e) => [e.id, e] as const))(
    "%s has access 'public', 'session' or a permission of the matrix",
    (_id, e) => {
      const allowed: readonly string[] = ['public', 'session', ...PERMISSIONS];
      expect(allowed).toContain(e.access);
    },
  );

  it.each(ENDPOINT_LIST.map((e) => [e.id, e] as const))(
    '%s says how it keeps to a role scope exactly when its permission is scopable',
    (_id, e) => {
      if (!isScopable(e.access)) return expect(e.scope).toBeUndefined();
      expect(['site', 'customer', 'customer-account', 'service', 'none']).toContain(e.scope);
      const keys = (s: unknown) =>
        s && typeof s === 'object' && 'shape' in s ? Object.keys((s as { shape: object }).shape) : [];
      // the check before the handler reads the record's key from the query (a customer's also from the body)
      if (e.scope === 'site') expect(keys(e.query)).toContain('appId');
      if (e.scope === 'customer' || e.scope === 'customer-account')
        expect([...keys(e.query), ...keys(e.body)]).toContain('uid');
    },
  );

  it('opens as a plain link only where a forged cross-site request gains nothing: public GETs', () => {
    for (const e of ENDPOINT_LIST.filter((x) => x.plainLink))
      expect([e.id, e.method, e.access]).toEqual([e.id, 'GET', 'public']);
  });

  it.each(ENDPOINT_LIST.filter((e) => e.access !== 'public').map((e) => [e.id, e] as const))(
    '%s (not public) answers 401',
    (_id, e) => {
      expect(Object.keys(e.responses)).toContain('401');
    },
  );

  it.each(
    ENDPOINT_LIST.filter((e) => e.access !== 'public' && e.access !== 'session').map(
      (e) => [e.id, e] as const,
    ),
  )('%s (needs a permission) answers 403', (_id, e) => {
    expect(Object.keys(e.responses)).toContain('403');
  });

  it.each(ENDPOINT_LIST.map((e) => [e.id, e] as const))(
    '%s answers 200 and the error envelope on every error status',
    (_id, e) => {
      expect(e.responses[200]).toBeDefined();
      for (const [status, schema] of Object.entries(e.responses)) {
        const code = Number(status);
        expect(code).toBeGreaterThanOrEqual(200);
        expect(code).toBeLessThan(600);
        if (code >= 400) expect(schema).toBe(errorEnvelopeSchema);
      }
    },
  );

  it.each(ENDPOINT_LIST.filter((e) => e.body !== undefined).map((e) => [e.id, e] as const))(
    '%s (with a body) answers 400 for a bad body',
    (_id, e) => {
      expect(Object.keys(e.responses)).toContain('400');
    },
  );

  it('sends no body on GET calls (they take query parameters)', () => {
    for (const e of ENDPOINT_LIST.filter((x) => x.method === 'GET')) expect(e.body).toBeUndefined();
  });

  it('gives every endpoint a summary and a tag', () => {
    for (const e of ENDPOINT_LIST) {
      expect(e.summary.trim().length).toBeGreaterThan(0);
      expect(e.tag.trim().length).toBeGreaterThan(0);
    }
  });
});

describe('the authentication calls of spec section 7', () => {
  it.each([
    ['login', 'POST', '/admin/login', loginBody, ['email', 'password']],
    ['forgotPassword', 'POST', '/admin/forgotpassword', forgotPasswordBody, ['email', 'url']],
    ['resetPassword', 'PUT', '/admin/resetpassword', resetPasswordBody, ['password', 'resettoken']],
    ['changePassword', 'PUT', '/admin/changepassword', changePasswordBody, ['newpassword', 'oldpassword']],
  ] as const)('%s is %s %s with body keys %j', (id, method, path, body, keys) => {
    const e: EndpointDef = ENDPOINTS[id];
    expect(e.method).toBe(method);
    expect(e.path).toBe(path);
    expect(e.body).toBe(body);
    expect(bodyKeys(e)).toEqual([...keys].sort());
  });

  it('lets anyone sign in, ask for a reset link and reset; changing a password needs a session', () => {
    expect(ENDPOINTS.login.access).toBe('public');
    expect(ENDPOINTS.forgotPassword.access).toBe('public');
    expect(ENDPOINTS.resetPassword.access).toBe('public');
    expect(ENDPOINTS.changePassword.access).toBe('session');
  });

  it('answers login with xtoken and xsign', () => {
    const r = ENDPOINTS.login.responses[200].safeParse({
      xtoken: 't',
      xsign: 's',
      Email: 'ada@example.com',
      Name: 'Ada',
      Role: ['SuperAdmin'],
    });
    expect(r.success).toBe(true);
  });
});
