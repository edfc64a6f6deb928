import { caseUrl, type ReasonSettings, reasonLabel, reasonProblem } from '@sac/contract/access-reasons';
import { AppError } from '../../lib/app-error.ts';
import type { RequestWhy } from './impersonation.repo.ts';

/**
 * The reason code and case a staff request or edit gives, checked under the operator's settings
 * (1140 unknown code, 1141 case required, 1142 case too long or not printable), before anything
 * is written; the error names the field.
 */
export function checkedWhy(
  settings: ReasonSettings,
  input: { ReasonCode: string; CaseReference: string },
  fieldPrefix: string,
): RequestWhy {
  const p = reasonProblem(settings, input);
  if (p) throw new AppError(p.error, p.message, [{ Field: `${fieldPrefix}${p.field}`, Message: p.message }]);
  const ref = input.CaseReference.trim();
  return { reasonCode: input.ReasonCode.trim(), caseReference: ref === '' ? null : ref };
}

/** The reason and case as mails and trail rows carry them. */
export function whyShown(settings: ReasonSettings, why: RequestWhy) {
  return {
    reason: reasonLabel(settings, why.reasonCode),
    caseReference: why.caseReference,
    caseUrl: caseUrl(settings.caseUrlPattern, why.caseReference),
  };
}

/** The reason and case in a log step's details (the staff trail's row too). */
export const whyDetails = (why: RequestWhy) => ({
  reasonCode: why.reasonCode,
  ...(why.caseReference ? { caseReference: why.caseReference } : {}),
});

/** Those of a stored request; none for a request made before reasons had codes. */
export const storedWhyDetails = (row: { reason_code: string | null; case_reference: string | null }) =>
  row.reason_code === null
    ? {}
    : whyDetails({ reasonCode: row.reason_code, caseReference: row.case_reference });
