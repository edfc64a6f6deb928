import type { FastifyInstance } from 'fastify';

/**
 * An internal console is for no search engine: /robots.txt disallows everything (the console's
 * pages also carry `<meta name="robots" content="noindex, nofollow">`).
 */
export function robots(app: FastifyInstance): void {
  app.get('/robots.txt', async (_req, reply) =>
    reply
      .type('text/plain; charset=utf-8')
      .header('Cache-Control', 'public, max-age=86400')
      .send('User-agent: *\nDisallow: /\n'),
  );
}
