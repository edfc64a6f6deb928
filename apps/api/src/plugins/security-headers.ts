import type { FastifyInstance } from 'fastify';

/** A strict policy: no inline or eval'd script or style, no plugins, no framing, no <base>. */
export function contentSecurityPolicy(connectSrc: string[]): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src ${["'self'", ...connectSrc].join(' ')}`,
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    "form-action 'self'",
  ].join('; ');
}

export function securityHeaders(app: FastifyInstance, opts: { connectSrc: string[] }): void {
  const csp = contentSecurityPolicy(opts.connectSrc);
  app.addHook('onSend', async (request, reply, payload) => {
    reply.header('Content-Security-Policy', csp);
    reply.header('X-Content-Type-Options', 'nosniff');
    // Reset links carry their token in the query: never leak it in a Referer.
    reply.header('Referrer-Policy', 'no-referrer');
    reply.header('X-Frame-Options', 'DENY');
    reply.header('Cross-Origin-Opener-Policy', 'same-origin');
    reply.header('Cross-Origin-Resource-Policy', 'same-origin');
    reply.header('X-Request-Id', request.id);
    if (request.url.startsWith('/admin/') || request.url.startsWith('/account/')) {
      reply.header('Cache-Control', 'no-store');
    }
    return payload;
  });
}
