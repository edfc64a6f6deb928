import { z } from 'zod';
import { PLANS } from './customers.ts';
import { MESSAGES } from './messages.ts';
import { DEFAULT_TIME_ZONE, isTimeZoneId, TIME_ZONE_MESSAGE } from './time-zones.ts';
import { decimalInteger, email, isUrlLike, phoneError, strongPassword } from './validation.ts';

/**
 * The write calls of the customer screens. The spec names none of them; they follow section 7's
 * style: query names the customer (uid / uID / userId as the matching read does) and the site
 * (appId); the body carries the fields.
 */

const optionalText = (max: number) =>
  z.string().trim().max(max, `At most ${max} characters.`).optional().default('');
const requiredName = (label: string) =>
  z
    .string({ error: `${label} is required.` })
    .trim()
    .min(1, `${label} is required.`)
    .max(100, `${label} is too long.`);

const phoneField = z
  .string()
  .trim()
  .optional()
  .default('')
  .superRefine((v, ctx) => {
    if (v === '') return; // optional
    const message = phoneError(v);
    if (message) ctx.addIssue({ code: 'custom', message });
  });

const webUrl = z
  .string()
  .trim()
  .refine((v) => v === '' || isUrlLike(v), 'Please enter a valid URL.');

/** What a basic-settings write may say about the plan. */
const PLAN_MESSAGES = {
  trialNeedsPlan: 'Choose the plan the trial is for.',
  freePlanNoTrial: 'The Free plan has no trial.',
  nothingToChange: 'Name at least one setting to change.',
} as const;

/** Site (app) names: what the platform accepts in a hostname label. */
const APP_NAME_PATTERN = /^[a-z0-9][a-z0-9-]{1,61}[a-z0-9]$/;
/**
 * Whether a (lowercased) text could be part of a site name: no character APP_NAME_PATTERN refuses,
 * and not longer than a name. Every site name is written through it, so a site-name search term
 * that does not fit matches no site.
 */
export const fitsSiteName = (text: string): boolean => text.length <= 63 && /^[a-z0-9-]*$/.test(text);
export const APP_NAME_MESSAGE =
  'Site name must be 3 to 63 lower-case letters, digits or dashes, starting and ending with a letter or digit.';
const appName = z
  .string({ error: 'Site name is required.' })
  .trim()
  .toLowerCase()
  .min(1, { error: 'Site name is required.', abort: true })
  .regex(APP_NAME_PATTERN, APP_NAME_MESSAGE);

/** Wizard step 1 (basic info): POST /admin/customer creates the customer and their first site. */
export const createCustomerBody = z.object({
  firstname: requiredName('First name'),
  lastname: requiredName('Last name'),
  email,
  organization: optionalText(200),
  phone: phoneField,
  // unchosen ('' or absent) means the UTC entry
  timezone: z
    .string()
    .trim()
    .optional()
    .transform((v) => v || DEFAULT_TIME_ZONE)
    .refine(isTimeZoneId, TIME_ZONE_MESSAGE),
  appname: appName,
});

/** POST /admin/site?uid=: add a site to an existing customer (the add-site flow's first step). */
export const addSiteBody = z.object({ appname: appName });

const TRIAL_DAYS_MESSAGE = 'Trial days must be a whole number from 0 to 365.';

/**
 * Wizard step 2 (Additional Site Information): PUT /admin/site/basicsettings?uID=&appId= {data}.
 * A write changes only what it names: the web apps' addresses each, and the plan only through an
 * explicit plan change (Plan, with TrialDays from today; 0 or absent: subscribed). Without Plan,
 * plan, status, trial end and billing stay exactly as stored. Free has no trial.
 */
export const siteBasicSettingsBody = z.object({
  data: z
    .object({
      ProductionUrl: webUrl.optional(),
      StagingUrl: webUrl.optional(),
      Plan: z.enum(PLANS, { error: 'Please choose a plan.' }).optional(),
      TrialDays: decimalInteger(
        z
          .number({ error: TRIAL_DAYS_MESSAGE })
          .int(TRIAL_DAYS_MESSAGE)
          .min(0, TRIAL_DAYS_MESSAGE)
          .max(365, TRIAL_DAYS_MESSAGE),
      ).optional(),
    })
    .refine((d) => d.TrialDays === undefined || d.Plan !== undefined, {
      path: ['Plan'],
      message: PLAN_MESSAGES.trialNeedsPlan,
    })
    .refine((d) => d.Plan !== 'Free' || !d.TrialDays, {
      path: ['TrialDays'],
      message: PLAN_MESSAGES.freePlanNoTrial,
    })
    .refine((d) => Object.values(d).some((v) => v !== undefined), {
      message: PLAN_MESSAGES.nothingToChange,
    }),
});

/** Wizard step 3 (Set Features): a feature set, or the features of an existing site. */
export const siteFeaturesBody = z
  .object({
    FeatureSet: z.string().trim().optional(),
    FromAppId: decimalInteger(z.number().int().positive()).optional(),
  })
  .refine((v) => (v.FeatureSet ? 1 : 0) + (v.FromAppId ? 1 : 0) === 1, {
    message: 'Choose a feature set or an existing site.',
    path: ['FeatureSet'],
  });

/** A database name is an identifier: letters, digits and underscores, at most 63 (PostgreSQL's limit). */
const DB_NAME_PATTERN = /^[A-Za-z0-9_]{1,63}$/;
export const DB_NAME_MESSAGE = 'Database name may contain only letters, digits and underscores (at most 63).';
const dbName = z
  .string()
  .trim()
  .min(1, MESSAGES.databaseNameRequired)
  .refine((v) => DB_NAME_PATTERN.test(v), DB_NAME_MESSAGE);

/** Wizard step 4 (Set Data Center & DB): an existing site's configuration, a global server, or a custom database. */
export const siteDataCenterBody = z.discriminatedUnion('Source', [
  z.object({ Source: z.literal('existing-site'), FromAppId: decimalInteger(z.number().int().positive()) }),
  z.object({
    Source: z.literal('global-server'),
    GlobalServer: z.string().trim().min(1, 'Please choose a global server.'),
    DbName: dbName,
  }),
  z.object({
    Source: z.literal('custom-database'),
    DataCenter: z.string().trim().min(1, 'Please choose a data center.'),
    DbName: dbName,
    ConnectionString: z.string().trim().min(1, MESSAGES.connectionStringRequired),
  }),
]);

/** PUT /admin/customerprofile?uid= {data}: edit a customer's profile. */
export const updateCustomerProfileBody = z.object({
  data: z.object({
    FirstName: requiredName('First name'),
    LastName: requiredName('Last name'),
    Email: email,
    /** The address the customer signs in with; absent: unchanged. */
    AuthEmail: email.optional(),
    Organization: optionalText(200),
    PhoneNumber: phoneField,
    ContactEmail: z
      .string()
      .trim()
      .optional()
      .default('')
      .refine((v) => v === '' || email.safeParse(v).success, MESSAGES.emailInvalid),
    TimeZone: z.string().trim().min(1, TIME_ZONE_MESSAGE).refine(isTimeZoneId, TIME_ZONE_MESSAGE),
  }),
});

/** PUT /admin/customer/password?uid=: set a customer's password (the console can generate one). */
export const customerPasswordBody = z.object({ password: strongPassword('Password') });

/** PUT /admin/site/status?uId=&appId=: activate or deactivate a site. */
export const siteStatusBody = z.object({ Status: z.enum(['active', 'inactive']) });

/** POST /admin/verifyemail {uid}: mark a customer's email verified after staff checked it. */
export const verifyEmailBody = z.object({ uid: z.string().uuid('uid is not a valid customer id.') });

export const WRITE_MESSAGES = {
  customerCreated: 'Customer created.',
  siteAdded: 'Site added.',
  basicSettingsSaved: 'Site settings saved.',
  featuresSaved: 'Features added.',
  dataCenterSaved: 'Data center updated.',
  profileUpdated: 'Customer profile updated.',
  passwordSet: 'The customer password has been reset.',
  siteActivated: 'Site activated.',
  siteDeactivated: 'Site deactivated.',
  emailVerified: 'Email verified.',
  secretRotated: 'A new API secret was issued. Copy it now: it is not shown again.',
  ...PLAN_MESSAGES,
} as const;

/**
 * Why a scoped role's holder (role-scopes.ts) may not make or move a site: it would be outside the
 * role's data centers or plans, where they could no longer reach it.
 */
export const SCOPE_WRITE_MESSAGES = {
  newSiteOutOfScope:
    "A new site starts on the Free plan with no data center, which is outside your role's scope: ask someone whose role covers it.",
  moveOutOfScope: "That plan or data center is outside your role's scope: the site would leave it.",
  sourceOutOfScope: "The site to copy from is outside your role's scope.",
} as const;

/** How long a site's old API secret may keep working after a rotation: none to 24 hours. */
const SECRET_GRACE_MAX_MINUTES = 24 * 60;
export const SECRET_GRACE_MESSAGE = 'Choose how long the old secret keeps working: from none to 24 hours.';

/** POST /admin/site/secret?uid=&appId=: a new API secret; the old one works GraceMinutes longer. */
export const rotateSecretBody = z.object({
  GraceMinutes: decimalInteger(
    z
      .number({ error: SECRET_GRACE_MESSAGE })
      .int(SECRET_GRACE_MESSAGE)
      .min(0, SECRET_GRACE_MESSAGE)
      .max(SECRET_GRACE_MAX_MINUTES, SECRET_GRACE_MESSAGE),
  ),
});
export const secretRotatedResponse = z.object({
  Data: z.object({
    AppName: z.string(),
    ApiKey: z.string(),
    /** The new secret: answered this once, only its hash is kept. */
    ApiSecret: z.string(),
    /** Until when the previous secret is still accepted (ISO, UTC); null when it stopped at once. */
    PreviousSecretValidUntil: z.string().nullable(),
  }),
  Message: z.string(),
});
