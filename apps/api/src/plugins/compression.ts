import zlib from 'node:zlib';
import fastifyCompress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

/** Answers smaller than this go as they are: compressing them costs more than it saves. */
export const COMPRESS_MIN_BYTES = 1024;

/**
 * Answers up to this size are compressed in one synchronous call (brotli quality 4: about 0.1 ms
 * for a 12 KB search page, 0.5 ms at this size); larger ones and streams go through the thread
 * pool. The plugin's default on a 2-core host is 8 KiB, and its stream path cost a search page
 * about 2 ms of latency in hand-offs (bench/search.bench.ts through HTTP).
 */
const COMPRESS_SYNC_MAX_BYTES = 64 * 1024;

/**
 * Compresses answers (JSON, the docs page, the OpenAPI document) of at least COMPRESS_MIN_BYTES for
 * clients that accept brotli or gzip. Brotli at quality 4 compresses about as well as gzip at a
 * fraction of its top quality's CPU: this runs per answer, in line or on the thread pool. The
 * console's files are compressed once at build time instead (console-static.ts); an answer that
 * already has a Content-Encoding is left alone. Calls carry their credentials in headers, and a
 * browser cannot make them cross-site, so secrets in a compressed body are not open to BREACH.
 */
export async function compression(app: FastifyInstance): Promise<void> {
  await app.register(fastifyCompress, {
    global: true,
    threshold: COMPRESS_MIN_BYTES,
    syncThreshold: COMPRESS_SYNC_MAX_BYTES,
    encodings: ['br', 'gzip'],
    // The plugin's own default, and JSON lines (the audit trail's export).
    customTypes:
      /^text\/(?!event-stream)|(?:\+|\/)json(?:;|$)|\/x-ndjson(?:;|$)|(?:\+|\/)text(?:;|$)|(?:\+|\/)xml(?:;|$)|octet-stream(?:;|$)/,
    brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } },
    zlibOptions: { level: 6 },
  });
}
