import { HEADERS, versionTag } from '@sac/contract/constants';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Queryable } from '../db/db.ts';
import { claimVersion } from '../db/record-versions.repo.ts';
import { AppError } from './app-error.ts';

const TAG = /^"(\d{1,18})"$/;

/**
 * The version an If-Match header names, for a write that must not apply over a newer state;
 * undefined without the header or with '*' (any version). Anything else is a client's mistake.
 */
function ifMatchVersion(header: string | string[] | undefined): number | undefined {
  if (header === undefined) return undefined;
  const value = (Array.isArray(header) ? header.join(',') : header).trim();
  if (value === '*') return undefined;
  const m = TAG.exec(value.replace(/^W\//, ''));
  if (!m) throw new AppError('validation', 'If-Match must name one version, as the ETag of the read: "7".');
  return Number(m[1]);
}

/** The version a write's If-Match names (see ifMatchVersion). */
export const expectedVersionOf = (request: FastifyRequest): number | undefined =>
  ifMatchVersion(request.headers[HEADERS.ifMatch.toLowerCase()]);

/**
 * A versioned record's answer: its body and the version registerEndpoint sends as the ETag (the
 * version a later write names in If-Match).
 */
export class Versioned<B> {
  /** A plain { body, version } object lacks it, so it is not taken for one and sent as is. */
  readonly kind = 'versioned';
  readonly body: B;
  readonly version: number;
  constructor(body: B, version: number) {
    this.body = body;
    this.version = version;
  }
}

/** Answers a versioned record's body with its version as the ETag. */
export function answerVersioned<B>(reply: FastifyReply, r: Versioned<B>): B {
  reply.header(HEADERS.etag, versionTag(r.version));
  return r.body;
}

/**
 * Raises a record's version (record_versions) for the write in this transaction, or refuses the
 * write (412, 930) when the record moved past the version its form was read at. The new version.
 */
export async function claimVersionOrRefuse(
  db: Queryable,
  record: string,
  expected: number | undefined,
): Promise<number> {
  const version = await claimVersion(db, record, expected);
  if (version === undefined) throw new AppError('conflict');
  return version;
}
