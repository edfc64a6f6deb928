import { z } from 'zod';

/**
 * Why staff ask into a customer's site: a reason code from a list the operator can extend and a
 * case or ticket reference (issue 35). One place for the list, its bounds and the case's rules:
 * impersonation requests use it, and so may any other access that needs a reason (break-glass
 * reuses the codes production-incident, security-incident and legal-request and the case).
 */

export interface ReasonCode {
  Code: string;
  Label: string;
}

/** The built-in codes, in the order the forms offer them. */
export const BUILT_IN_REASON_CODES: readonly ReasonCode[] = [
  { Code: 'customer-request', Label: 'Customer asked for help' },
  { Code: 'support-ticket', Label: 'Support ticket' },
  { Code: 'bug-investigation', Label: 'Bug investigation' },
  { Code: 'billing', Label: 'Billing question' },
  { Code: 'onboarding', Label: 'Onboarding or setup help' },
  { Code: 'security-review', Label: 'Security review' },
  { Code: 'production-incident', Label: 'Production incident' },
  { Code: 'security-incident', Label: 'Security incident' },
  { Code: 'legal-request', Label: 'Legal request' },
];

/** The code a customer's own request carries (they asked for help themselves). */
export const CUSTOMER_REQUEST_REASON = 'customer-request';

/** Bounds of the operator's own codes (IMPERSONATION_REASON_CODES). */
const REASON_CODE_LIMITS = { extraCodes: 30, codeLength: 40, labelLength: 60 } as const;
/** A code: lower-case letters, digits and dashes, starting and ending with a letter or digit. */
const CODE_PATTERN = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;
/** Longest case or ticket reference. */
export const CASE_REFERENCE_MAX = 100;
/** Printable characters only: no control characters, no line breaks (it goes into mails and feeds). */
const PRINTABLE = /^[^\p{Cc}\p{Cf}\p{Zl}\p{Zp}]*$/u;
/** The one placeholder of IMPERSONATION_CASE_URL the case goes into, URL-encoded. */
const CASE_PLACEHOLDER = '{case}';

export const REASON_MESSAGES = {
  codeRequired: 'Please choose a reason.',
  unknownCode: (code: string) => `There is no reason code '${code}'. Please choose one of the list.`,
  caseRequired: 'Please give the case or ticket reference.',
  caseTooLong: `The case or ticket reference can be at most ${CASE_REFERENCE_MAX} characters.`,
  caseCharacters: 'The case or ticket reference may hold printable characters only (no line breaks).',
} as const;

/** What the operator set: every code offered (built-in first), whether a case is required, its link. */
export interface ReasonSettings {
  codes: readonly ReasonCode[];
  caseRequired: boolean;
  /** https://…{case}…, or null: the case is shown as text. */
  caseUrlPattern: string | null;
}

export const DEFAULT_REASON_SETTINGS: ReasonSettings = {
  codes: BUILT_IN_REASON_CODES,
  caseRequired: false,
  caseUrlPattern: null,
};

/**
 * IMPERSONATION_REASON_CODES: "code:Label,code2:Label 2", added after the built-in codes (a
 * built-in code given again takes the new label). Throws a sentence naming what is wrong.
 */
export function parseReasonCodes(text: string | undefined): ReasonCode[] {
  const name = 'IMPERSONATION_REASON_CODES';
  const out = BUILT_IN_REASON_CODES.map((c) => ({ ...c }));
  const entries = (text ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (entries.length > REASON_CODE_LIMITS.extraCodes)
    throw new Error(`${name} may add at most ${REASON_CODE_LIMITS.extraCodes} codes, got ${entries.length}`);
  const seen = new Set<string>();
  for (const entry of entries) {
    const at = entry.indexOf(':');
    const code = (at < 0 ? entry : entry.slice(0, at)).trim();
    const label = at < 0 ? '' : entry.slice(at + 1).trim();
    if (!CODE_PATTERN.test(code) || code.length > REASON_CODE_LIMITS.codeLength)
      throw new Error(
        `${name}: '${code}' is not a code (a-z, 0-9 and dashes, at most ${REASON_CODE_LIMITS.codeLength} characters)`,
      );
    if (!label || label.length > REASON_CODE_LIMITS.labelLength || !PRINTABLE.test(label))
      throw new Error(
        `${name}: the code '${code}' needs a label after a colon (printable, at most ${REASON_CODE_LIMITS.labelLength} characters), as in '${code}:Its label'`,
      );
    if (seen.has(code)) throw new Error(`${name}: the code '${code}' is given twice`);
    seen.add(code);
    const known = out.find((c) => c.Code === code);
    if (known) known.Label = label;
    else out.push({ Code: code, Label: label });
  }
  return out;
}

const LOOPBACK = ['localhost', '127.0.0.1', '[::1]'];

/**
 * IMPERSONATION_CASE_URL: an https address (http only on this machine) holding {case} once,
 * where the reference goes URL-encoded. Answers null when unset; throws a sentence when wrong.
 */
export function parseCaseUrlPattern(text: string | undefined): string | null {
  const name = 'IMPERSONATION_CASE_URL';
  const v = (text ?? '').trim();
  if (v === '') return null;
  const parts = v.split(CASE_PLACEHOLDER);
  if (parts.length !== 2)
    throw new Error(
      `${name} must hold ${CASE_PLACEHOLDER} exactly once, as in https://tickets.example.com/browse/${CASE_PLACEHOLDER}, got '${v}'`,
    );
  let url: URL;
  try {
    url = new URL(parts.join('x'));
  } catch {
    throw new Error(`${name} must be an address, got '${v}'`);
  }
  const local = LOOPBACK.includes(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && local))
    throw new Error(`${name} must be an https address (http only on this machine), got '${v}'`);
  if (url.username || url.password)
    throw new Error(`${name} may not hold a user name or password, got '${v}'`);
  return v;
}

/** The case's link: the pattern with the reference URL-encoded; null without a pattern or a case. */
export function caseUrl(pattern: string | null, reference: string | null | undefined): string | null {
  if (!pattern || !reference) return null;
  return pattern.replace(CASE_PLACEHOLDER, encodeURIComponent(reference));
}

/** The words of a code: the operator's label, or the code itself once it is no longer listed. */
export function reasonLabel(settings: Pick<ReasonSettings, 'codes'>, code: string | null): string | null {
  if (code === null) return null;
  return settings.codes.find((c) => c.Code === code)?.Label ?? code;
}

/** The two fields as a body carries them: the code's shape here, its membership by the settings. */
export const reasonCodeField = z
  .string({ error: REASON_MESSAGES.codeRequired })
  .trim()
  .min(1, REASON_MESSAGES.codeRequired)
  .max(REASON_CODE_LIMITS.codeLength, REASON_MESSAGES.codeRequired);
/** Absent or blank: no case (which the settings may refuse). */
export const caseReferenceField = z
  .string({ error: REASON_MESSAGES.caseCharacters })
  .trim()
  .optional()
  .default('');

export type ReasonProblem = {
  error: 'unknownReasonCode' | 'caseRequired' | 'caseReferenceInvalid';
  field: 'ReasonCode' | 'CaseReference';
  message: string;
};

/**
 * What is wrong with a code and a case under the operator's settings, or null: the server's rule,
 * which the forms apply as the user types.
 */
export function reasonProblem(
  settings: Pick<ReasonSettings, 'codes' | 'caseRequired'>,
  input: { ReasonCode: string; CaseReference: string },
): ReasonProblem | null {
  const code = input.ReasonCode.trim();
  if (!settings.codes.some((c) => c.Code === code))
    return {
      error: 'unknownReasonCode',
      field: 'ReasonCode',
      message: code ? REASON_MESSAGES.unknownCode(code) : REASON_MESSAGES.codeRequired,
    };
  return caseProblem(settings, input.CaseReference);
}

/** What is wrong with a case reference alone, or null. */
function caseProblem(
  settings: Pick<ReasonSettings, 'caseRequired'>,
  reference: string,
): ReasonProblem | null {
  const ref = reference.trim();
  const bad = (message: string): ReasonProblem => ({
    error: 'caseReferenceInvalid',
    field: 'CaseReference',
    message,
  });
  if (ref === '' && settings.caseRequired)
    return { error: 'caseRequired', field: 'CaseReference', message: REASON_MESSAGES.caseRequired };
  if (ref.length > CASE_REFERENCE_MAX) return bad(REASON_MESSAGES.caseTooLong);
  if (!PRINTABLE.test(ref)) return bad(REASON_MESSAGES.caseCharacters);
  return null;
}

/** GET /admin/impersonation/reasons: the codes the forms offer and the case's rule. */
export const reasonSettingsResponse = z.object({
  Data: z.object({
    ReasonCodes: z.array(z.object({ Code: z.string(), Label: z.string() })),
    CaseRequired: z.boolean(),
    /** The case's link, {case} where the reference goes; null: shown as text. */
    CaseUrlPattern: z.string().nullable(),
  }),
});

/** Those fields of a stored code and case, under the settings. */
export function reasonOut(
  settings: ReasonSettings,
  stored: { reason_code: string | null; case_reference: string | null },
) {
  return {
    ReasonCode: stored.reason_code,
    ReasonLabel: reasonLabel(settings, stored.reason_code),
    CaseReference: stored.case_reference,
    CaseUrl: caseUrl(settings.caseUrlPattern, stored.case_reference),
  };
}

/**
 * Those fields as the site's owner reads them (consent page and mail, their access page, export and
 * feed): the case's reference, never the link into the provider's own tracker, an internal address.
 */
export function customerReasonOut(
  settings: ReasonSettings,
  stored: { reason_code: string | null; case_reference: string | null },
) {
  return { ...reasonOut(settings, stored), CaseUrl: null };
}

/**
 * A form's schema with the settings' rule added (the code listed, the case when required,
 * bounded): the console checks as the server will. Without settings yet, the schema as it is.
 */
export function withReasonRule<S extends z.ZodType<{ ReasonCode: string; CaseReference: string }>>(
  schema: S,
  settings: Pick<ReasonSettings, 'codes' | 'caseRequired'> | undefined,
): S {
  if (!settings) return schema;
  return schema.superRefine(
    (v, ctx) => {
      const code = typeof v?.ReasonCode === 'string' ? v.ReasonCode : '';
      const reference = typeof v?.CaseReference === 'string' ? v.CaseReference : '';
      // An empty code is the schema's own "Please choose a reason."
      const p = code.trim()
        ? reasonProblem(settings, { ReasonCode: code, CaseReference: reference })
        : caseProblem(settings, reference);
      if (p) ctx.addIssue({ code: 'custom', path: [p.field], message: p.message });
    },
    { when: () => true },
  );
}

/** The settings as GET /admin/impersonation/reasons answers them, for withReasonRule. */
export const reasonSettingsOf = (d: z.infer<typeof reasonSettingsResponse>['Data']) => ({
  codes: d.ReasonCodes,
  caseRequired: d.CaseRequired,
  caseUrlPattern: d.CaseUrlPattern,
});
