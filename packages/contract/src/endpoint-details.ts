import type { z } from 'zod';
import type { EndpointId } from './endpoint-routes.ts';
import { errorEnvelopeSchema } from './errors.ts';

/** The tags of the reference, in its order, each with what it groups. */
export const ENDPOINT_TAGS = {
  Authentication: 'Sign-in and sign-out of staff members, their session and their passwords.',
  Team: 'The super users (staff members) and their roles.',
  'Single sign-on':
    'Staff sign-in through an OpenID Connect provider: the provider, its group-to-role table, and whether password sign-in stays on (docs/operations.md, "Single sign-on").',
  Customers: 'Find customers; their profiles, accounts, sign-ins and activity; create and edit them.',
  Sites: "Customers' sites: lists and details, the catalogue, and the steps of the site wizard.",
  Impersonation:
    "Time-boxed access to a customer's site: requests, the owner's consent, approval, sessions and logs.",
  Dashboard: 'What awaits the signed-in staff member and how the platform stands, in one call.',
  Notices:
    "Notices to site owners (maintenance, incident, announcement): their audience, schedule, sending and delivery log; the owners' unsubscribe links.",
  Notifications:
    "The signed-in staff member's notifications: the list with its read state, marking read, the live stream and the mail preferences per kind.",
  Audit: 'The staff audit trail: who did what, when and from where; its export and the key that verifies it.',
  'Site settings':
    "A site's settings: custom objects, domains, web apps, security, password hashing, registration fields and integrations.",
  Webhooks:
    "Endpoints subscribed to the console's events, each delivery signed as Standard Webhooks says; the events themselves are in the document's `webhooks` section (docs page: /docs/webhooks).",
} as const;
export type EndpointTag = keyof typeof ENDPOINT_TAGS;

/** What endpoints.ts adds to an entry of ENDPOINT_ROUTES: documentation and schemas. */
export interface EndpointDetails {
  readonly summary: string;
  readonly tag: string;
  /**
   * A public call that authenticates with a site's API key and secret (the headers of
   * CUSTOMER_AUTH_HEADERS) instead of a staff session.
   */
  readonly siteCredentials?: true;
  readonly query?: z.ZodObject;
  /** The JSON body; DELETE calls carry theirs as data too, as spec section 7 says. */
  readonly body?: z.ZodType;
  /** The answer per HTTP status; every error status carries the error envelope. */
  readonly responses: Readonly<Record<number, z.ZodType>>;
  /**
   * Optimistic concurrency (docs/decisions.md): 'etag' answers the record's version as an ETag;
   * 'if-match' takes the version read in If-Match (an ETag, or a listed row's Version as "7"),
   * answers 412 (930) when the record moved on, and answers the new version as an ETag.
   */
  readonly versioned?: 'etag' | 'if-match';
  /** The media types of a 200 that is a file rather than JSON (its schema describes the text). */
  readonly produces?: readonly string[];
}

/** The details of some endpoints: one area's part of the table. */
export type DetailsPart = { readonly [I in EndpointId]?: EndpointDetails & { readonly tag: EndpointTag } };

/**
 * Error statuses of an endpoint. Signed-in calls other than session and logout also answer 403
 * (947) to an impersonation session, which reaches only its site's calls (docs/decisions.md).
 */
export const errors = (...statuses: number[]) =>
  Object.fromEntries(statuses.map((s) => [s, errorEnvelopeSchema])) as Record<number, z.ZodType>;
