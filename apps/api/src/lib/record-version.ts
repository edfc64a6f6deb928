import { AppError } from './app-error.ts';

/** A record's version as an entity tag: "7" (a strong tag; the version is the whole state). */
export const versionTag = (version: number | string): string => `"${version}"`;

const TAG = /^"(\d{1,18})"$/;

/**
 * The version an If-Match header names, for a write that must not apply over a newer state;
 * undefined without the header or with '*' (any version). Anything else is a client's mistake.
 */
export function ifMatchVersion(header: string | string[] | undefined): number | undefined {
  if (header === undefined) return undefined;
  const value = (Array.isArray(header) ? header.join(',') : header).trim();
  if (value === '*') return undefined;
  const m = TAG.exec(value.replace(/^W\//, ''));
  if (!m) throw new AppError('validation', 'If-Match must name one version, as the ETag of the read: "7".');
  return Number(m[1]);
}
