import type { z } from 'zod';
import { type EndpointDetails, type EndpointTag, errors } from './endpoint-details.ts';
import { BULK_DETAILS } from './endpoint-details-bulk.ts';
import { CUSTOMERS_DETAILS } from './endpoint-details-customers.ts';
import { EVENTS_DETAILS } from './endpoint-details-events.ts';
import { OPERATIONS_DETAILS } from './endpoint-details-operations.ts';
import { SIGN_IN_DETAILS } from './endpoint-details-sign-in.ts';
import { SITE_SETTINGS_DETAILS } from './endpoint-details-site-settings.ts';
import { TOKENS_DETAILS } from './endpoint-details-tokens.ts';
import { ENDPOINT_ROUTES, type EndpointId, type EndpointRoute } from './endpoint-routes.ts';

export { ENDPOINT_TAGS } from './endpoint-details.ts';
export type { Access, EndpointId } from './endpoint-routes.ts';

/** One endpoint of the full table: its route (endpoint-routes.ts) and its details. */
export interface EndpointDef extends EndpointRoute, EndpointDetails {}

/** Summary, tag and schemas of every endpoint, keyed by the ids of ENDPOINT_ROUTES (all of them). */
const DETAILS = {
  ...SIGN_IN_DETAILS,
  ...CUSTOMERS_DETAILS,
  ...OPERATIONS_DETAILS,
  ...SITE_SETTINGS_DETAILS,
  ...TOKENS_DETAILS,
  ...EVENTS_DETAILS,
  ...BULK_DETAILS,
} as const satisfies { readonly [I in EndpointId]: EndpointDetails & { readonly tag: EndpointTag } };

type Endpoints = { readonly [I in EndpointId]: (typeof ENDPOINT_ROUTES)[I] & (typeof DETAILS)[I] };

/**
 * The endpoint table: each route of ENDPOINT_ROUTES with its details. The API registers its routes
 * from it; OpenAPI and the docs page derive from it.
 */
export const ENDPOINTS: Endpoints = Object.fromEntries(
  (Object.keys(ENDPOINT_ROUTES) as EndpointId[]).map((id): [EndpointId, unknown] => [
    id,
    {
      ...ENDPOINT_ROUTES[id],
      ...DETAILS[id],
      responses: {
        ...guardErrors(ENDPOINT_ROUTES[id].method),
        ...DETAILS[id].responses,
        ...(versionedOf(DETAILS[id]) === 'if-match' ? errors(412) : {}),
      },
    },
  ]),
) as Endpoints;

function versionedOf(d: EndpointDetails) {
  return d.versioned;
}

/**
 * What the request guard may answer before any endpoint runs, so every endpoint declares it: 400
 * (no ajax marker, a body that is not JSON or is over 1 MB) and, for methods that carry a body,
 * 415 (a body that is not application/json).
 */
function guardErrors(method: string): Record<number, z.ZodType> {
  return method === 'GET' ? errors(400) : errors(400, 415);
}

export const ENDPOINT_LIST: readonly EndpointDef[] = Object.values(ENDPOINTS);

type Def<I extends EndpointId> = (typeof ENDPOINTS)[I];
export type BodyOf<I extends EndpointId> =
  Def<I> extends { body: z.ZodType } ? z.input<Def<I>['body']> : undefined;
export type QueryOf<I extends EndpointId> =
  Def<I> extends { query: z.ZodType } ? z.input<Def<I>['query']> : undefined;
export type ResponseOf<I extends EndpointId> = Def<I>['responses'] extends { 200: z.ZodType }
  ? z.output<Def<I>['responses'][200]>
  : never;
