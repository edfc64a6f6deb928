import { HEADERS } from '@sac/contract/constants';
import { ENDPOINT_LIST } from '@sac/contract/endpoints';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../lib/app-error.ts';
import { isApiCallPath, normalisedPath } from '../lib/request-path.ts';

/** The paths of the endpoints opened as plain links, normalised. */
const PLAIN_LINKS = new Set(ENDPOINT_LIST.filter((e) => e.plainLink).map((e) => e.path.toLowerCase()));

/**
 * API calls must carry the ajax marker: a browser cannot send that header cross-site without a
 * CORS preflight, which only the console origins pass, so forged form posts are refused.
 */
export function requestGuard(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    // On the decoded, normalised path: the router runs /%61dmin/session as /admin/session.
    const p = normalisedPath(request.url);
    if (request.method === 'OPTIONS' || !isApiCallPath(p)) return;
    // a download link or a feed reader: a token in the query is all it has (endpoint-routes.ts)
    if ((request.method === 'GET' || request.method === 'HEAD') && PLAIN_LINKS.has(p)) return;
    if (request.headers[HEADERS.ajaxMarker.toLowerCase()] !== HEADERS.ajaxMarkerValue) {
      throw new AppError('ajaxMarkerMissing');
    }
  });
  // JSON bodies only; an empty body with a JSON content type reads as no body (logout sends none).
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'string', bodyLimit: 1_048_576 },
    (_req, body, done) => {
      const text = String(body);
      if (text.trim() === '') return done(null, undefined);
      try {
        done(null, JSON.parse(text));
      } catch {
        done(new AppError('validation', 'The request body is not valid JSON.'), undefined);
      }
    },
  );
  app.removeContentTypeParser('text/plain');
}
