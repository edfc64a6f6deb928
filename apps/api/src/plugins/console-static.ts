import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import { AppError } from '../lib/app-error.ts';
import { apiPrefixes, hasDotSegment, isUnder, normalisedPath } from '../lib/request-path.ts';

/**
 * Paths that clients and scanners take for an API, which are never the console's pages: /api,
 * /graphql and /v1 (any version) with what lies under them, and any path starting /admin (/admin-x,
 * /administrator). One that is no route answers the envelope's 404: a 200 with the console's page
 * tells a client that such an API exists and hands it HTML where it expects JSON.
 */
const API_LOOKING = /^\/(?:api|graphql|v\d+)(?:\/|$)|^\/admin/;

/**
 * Serves the built console with an SPA fallback: any GET that is not under one of the API's
 * prefixes or API-looking (above), not a dotfile and not a file answers index.html, so client
 * routes survive a reload.
 * The rest answer the envelope's 404. `routes` are the paths registered on the app so far (and
 * by this plugin): the API's prefixes are derived from them, so a module added later reserves
 * its prefix without a list to keep up to date here.
 */
export async function consoleStatic(app: FastifyInstance, config: Config, routes: string[]): Promise<void> {
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
      // index.html and assets/* as built, with their .br and .gz copies (apps/web/scripts/precompress.mjs)
      preCompressed: true,
      setHeaders: (res, file) => {
        res.header(
          'Cache-Control',
          file.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    });
  }

  let prefixes: string[] | undefined;
  app.setNotFoundHandler(async (request, reply) => {
    // On the decoded, normalised path, so no spelling (/ADMIN/x, /%41dmin/x, //admin/x) gets the page.
    const pathname = normalisedPath(request.url);
    prefixes ??= apiPrefixes(routes);
    const isApi = prefixes.some((p) => isUnder(pathname, p)) || API_LOOKING.test(pathname);
    // A missing file (an asset of an older build, a typo) is a 404, not the console's page: a
    // script tag that gets HTML back fails obscurely, and caches would keep the wrong answer.
    // Dotfiles (/.git/config, /.env) are never console pages either: scanners get a plain 404.
    const isFile = isUnder(pathname, '/assets') || /\.[a-z0-9]+$/i.test(pathname) || hasDotSegment(pathname);
    if (isApi || isFile || request.method !== 'GET' || !hasConsole) throw new AppError('unknownCall');
    // The page's brotli or gzip copy when the client accepts it (setHeaders marks it no-cache).
    return reply.sendFile('index.html');
  });
}
