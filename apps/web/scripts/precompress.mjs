#!/usr/bin/env node
// After `vite build`: each text file of dist/ gets a brotli (.br) and a gzip (.gz) copy, made once
// at the strongest settings, which the server sends as they are to a browser that accepts them
// (@fastify/static preCompressed). Files under 512 bytes are left alone: the gain is a few bytes.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';

const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist');
const TEXT = /\.(js|mjs|css|html|svg|json|txt|webmanifest)$/;
const MIN_BYTES = 512;

function* files(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(p);
    else if (TEXT.test(entry.name)) yield p;
  }
}

let raw = 0;
let br = 0;
let gz = 0;
for (const file of files(dist)) {
  const body = fs.readFileSync(file);
  if (body.length < MIN_BYTES) continue;
  const brotli = zlib.brotliCompressSync(body, {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
    },
  });
  const gzip = zlib.gzipSync(body, { level: zlib.constants.Z_BEST_COMPRESSION });
  fs.writeFileSync(`${file}.br`, brotli);
  fs.writeFileSync(`${file}.gz`, gzip);
  raw += body.length;
  br += brotli.length;
  gz += gzip.length;
}
const kb = (n) => `${(n / 1024).toFixed(0)} KB`;
console.log(`precompressed: ${kb(raw)} of text as ${kb(br)} brotli, ${kb(gz)} gzip`);
