import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import { AppError } from '../lib/app-error.ts';

/**
 * Serves the built console with an SPA fallback: any GET that is not an API call, a docs page or
 * a file answers index.html, so client routes survive a reload. API paths answer the envelope.
 */
export async function consoleStatic(app: FastifyInstance, config: Config): Promise<void> {
  app.get('/runtime-config.json', async (_req, reply) => {
    reply.header('Cache-Control', 'no-store');
    return config.runtime;
  });

  const indexFile = path.join(config.webDistDir, 'index.html');
  const hasConsole = fs.existsSync(indexFile);
  if (hasConsole) {
    await app.register(fastifyStatic, {
      root: config.webDistDir,
      wildcard: false,
      index: false,
      setHeaders: (res, file) => {
        res.header(
          'Cache-Control',
          file.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    });
  }

  app.setNotFoundHandler(async (request, reply) => {
    const isApi =
      request.url.startsWith('/admin/') ||
      request.url.startsWith('/account/switchapp') ||
      request.url.startsWith('/docs/');
    // A missing file (an asset of an older build, a typo) is a 404, not the console's page: a
    // script tag that gets HTML back fails obscurely, and caches would keep the wrong answer.
    const pathname = request.url.split(/[?#]/, 1)[0] ?? '';
    const isFile = pathname.startsWith('/assets/') || /\.[a-z0-9]+$/i.test(pathname);
    if (isApi || isFile || request.method !== 'GET' || !hasConsole) throw new AppError('unknownCall');
    reply.header('Cache-Control', 'no-cache');
    return reply.type('text/html; charset=utf-8').send(fs.createReadStream(indexFile));
  });
}
