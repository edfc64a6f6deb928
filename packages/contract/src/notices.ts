import { z } from 'zod';
import { PLANS } from './customers.ts';
import { decimalInteger } from './validation.ts';

/**
 * Customer notices (Manage Notfications): staff holding notices.send write to the owners of the
 * sites an audience names; a periodic job sends them by mail in batches, and each recipient's
 * delivery is logged. Owners may unsubscribe from announcements, never from incident or
 * maintenance notices (docs/decisions.md).
 */

export const NOTICE_KINDS = ['maintenance', 'incident', 'announcement'] as const;
export type NoticeKind = (typeof NOTICE_KINDS)[number];
/** The only kind an owner may unsubscribe from. */
export const UNSUBSCRIBABLE_KIND: NoticeKind = 'announcement';

export const NOTICE_AUDIENCES = ['all', 'plan', 'data-center', 'sites'] as const;
const NOTICE_STATUSES = ['scheduled', 'sending', 'sent', 'cancelled', 'failed'] as const;
export const DELIVERY_STATUSES = ['pending', 'queued', 'retrying', 'sent', 'failed', 'skipped'] as const;

const NOTICE_SUBJECT_MAX = 150;
export const NOTICE_TEXT_MAX = 5_000;
/** Sites an audience may name one by one. */
export const NOTICE_SITES_MAX = 200;
const NOTICE_DATA_CENTERS_MAX = 20;
/** A notice may be scheduled at most this far ahead. */
export const NOTICE_SCHEDULE_MAX_DAYS = 90;
/** Rows a list page holds. */
export const NOTICE_PAGE_SIZE = 50;

const ID_MESSAGE = 'id must be a positive number.';
const noticeId = decimalInteger(
  z
    .number({ error: ID_MESSAGE })
    .int(ID_MESSAGE)
    .positive(ID_MESSAGE)
    .max(Number.MAX_SAFE_INTEGER, ID_MESSAGE),
);
const CURSOR_MESSAGE = 'cursor is not a cursor of this list.';
const cursor = z
  .string()
  .max(20, CURSOR_MESSAGE)
  .regex(/^[0-9]+$/, CURSOR_MESSAGE)
  .optional();

/** Who receives a notice: the owners of every site, or of the sites of some plans, data centers, or a list. */
export const noticeAudience = z
  .object({
    Type: z.enum(NOTICE_AUDIENCES),
    /** Type plan: one to three plans. */
    Plans: z.array(z.enum(PLANS)).min(1, 'Choose at least one plan.').max(PLANS.length).optional(),
    /** Type data-center: data center codes. */
    DataCenters: z
      .array(z.string().regex(/^[a-z0-9-]{1,40}$/, 'A data center code is letters, digits and dashes.'))
      .min(1, 'Choose at least one data center.')
      .max(NOTICE_DATA_CENTERS_MAX, `At most ${NOTICE_DATA_CENTERS_MAX} data centers.`)
      .optional(),
    /** Type sites: the sites' AppIds. */
    AppIds: z
      .array(z.number().int().positive().max(Number.MAX_SAFE_INTEGER))
      .min(1, 'Choose at least one site.')
      .max(NOTICE_SITES_MAX, `At most ${NOTICE_SITES_MAX} sites.`)
      .optional(),
  })
  .superRefine((a, ctx) => {
    const need = { plan: 'Plans', 'data-center': 'DataCenters', sites: 'AppIds' } as const;
    const field = a.Type === 'all' ? undefined : need[a.Type];
    if (field && !a[field]) ctx.addIssue({ code: 'custom', path: [field], message: `${field} is required.` });
  });
export type NoticeAudience = z.infer<typeof noticeAudience>;

/** POST /admin/notices/recipients: how many addresses an audience reaches, before sending. */
export const noticeRecipientsBody = z.object({ Audience: noticeAudience });
export const noticeRecipientsResponse = z.object({
  Count: z.number().int(),
  /** The audience reaches more than the configured maximum: it cannot be sent. */
  OverLimit: z.boolean(),
  Limit: z.number().int(),
});

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})$/;

/** GET /admin/notices/audience-options: what an audience may name. */
export const noticeAudienceOptionsResponse = z.object({
  Plans: z.array(z.string()),
  DataCenters: z.array(z.object({ Code: z.string(), Name: z.string() })),
});

/** How many sites the notice site picker's search answers at most. */
export const NOTICE_SITE_SEARCH_LIMIT = 20;

/**
 * GET /admin/notices/site-options: sites to choose for a notice to chosen sites, found by site name
 * or by their owner's name (the customer search's matching: a prefix under 3 characters, else
 * anywhere in the name).
 */
export const noticeSiteOptionsQuery = z.object({
  term: z.string().trim().min(1, 'Type a customer or site name.').max(100, 'The search term is too long.'),
});
export const noticeSiteOptionsResponse = z.object({
  /** At most NOTICE_SITE_SEARCH_LIMIT: sites whose name matches first, then the matching owners' sites. */
  Data: z.array(
    z.object({
      AppId: z.number().int(),
      AppName: z.string(),
      OwnerName: z.string(),
      OwnerEmail: z.string(),
    }),
  ),
});

/** POST /admin/notices: a new notice, sent now (SendAt null) or at a time. */
export const createNoticeBody = z.object({
  Kind: z.enum(NOTICE_KINDS),
  Subject: z
    .string()
    .trim()
    .min(1, 'Please enter a subject.')
    .max(NOTICE_SUBJECT_MAX, `The subject has at most ${NOTICE_SUBJECT_MAX} characters.`)
    .regex(/^[^\r\n]*$/, 'The subject is one line.'),
  Text: z
    .string()
    .trim()
    .min(1, 'Please enter the text.')
    .max(NOTICE_TEXT_MAX, `The text has at most ${NOTICE_TEXT_MAX} characters.`),
  Audience: noticeAudience,
  /** ISO 8601 with an offset; null: now. */
  SendAt: z
    .string()
    .max(40)
    .refine(
      (v) => ISO_INSTANT.test(v) && !Number.isNaN(Date.parse(v)),
      'SendAt must be a date and time (ISO 8601).',
    )
    .nullable(),
});

const progress = z.object({
  Total: z.number().int(),
  Sent: z.number().int(),
  Failed: z.number().int(),
  Skipped: z.number().int(),
  /** Waiting to be queued, queued, or retrying. */
  Pending: z.number().int(),
});

const notice = z.object({
  Id: z.number().int(),
  Kind: z.enum(NOTICE_KINDS),
  Subject: z.string(),
  Audience: z.object({
    Type: z.enum(NOTICE_AUDIENCES),
    Plans: z.array(z.string()).optional(),
    DataCenters: z.array(z.string()).optional(),
    AppIds: z.array(z.number().int()).optional(),
  }),
  Status: z.enum(NOTICE_STATUSES),
  SendAt: z.string(),
  CreatedAt: z.string(),
  CreatedBy: z.string(),
  StartedAt: z.string().nullable(),
  FinishedAt: z.string().nullable(),
  CancelledBy: z.string().nullable(),
  /** Why a notice failed before sending (its audience grew over the limit). */
  FailureReason: z.string().nullable(),
  Progress: progress,
});
export type Notice = z.infer<typeof notice>;

export const noticeListQuery = z.object({ cursor });
export const noticeListResponse = z.object({ Data: z.array(notice), NextCursor: z.string().nullable() });
export const noticeQuery = z.object({ id: noticeId });
export const noticeResponse = z.object({ Data: notice.extend({ Text: z.string() }) });
export const noticeCancelBody = z.object({ Id: noticeId });

export const noticeDeliveriesQuery = z.object({
  id: noticeId,
  status: z.enum(DELIVERY_STATUSES).optional(),
  cursor,
});
const delivery = z.object({
  Id: z.number().int(),
  Email: z.string(),
  Status: z.enum(DELIVERY_STATUSES),
  /** Delivery attempts so far (more than one: retried). */
  Attempts: z.number().int(),
  /** Why the last attempt failed, or why the recipient was skipped. */
  Reason: z.string().nullable(),
  SentAt: z.string().nullable(),
  NextAttemptAt: z.string().nullable(),
});
export const noticeDeliveriesResponse = z.object({
  Data: z.array(delivery),
  NextCursor: z.string().nullable(),
});

const TOKEN_MESSAGE = 'This unsubscribe link is not valid.';
/** The token of an unsubscribe link: the address and its signature, base64url, dot-separated. */
export const unsubscribeQuery = z.object({
  token: z
    .string()
    .max(600, TOKEN_MESSAGE)
    .regex(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/, TOKEN_MESSAGE),
});
export const unsubscribeResponse = z.object({
  /** The address, partly masked. */
  Email: z.string(),
  Unsubscribed: z.boolean(),
});
