import { ERRORS, type ErrorName } from '@sac/contract/errors';

export interface FieldError {
  Field: string;
  Message: string;
}

/** An error the API answers with the envelope of its ERRORS entry. */
export class AppError extends Error {
  readonly code: number;
  readonly status: number;
  /** Sent as Retry-After (seconds) with a 429 or 503: when the client may try again. */
  retryAfterSeconds?: number;
  /** For a 403: what the caller lacked, as the staff trail names it (else the error's text). */
  missing?: string;
  readonly errorName: ErrorName;
  readonly description: string;
  readonly fieldErrors?: FieldError[];
  constructor(
    errorName: ErrorName,
    description: string = ERRORS[errorName].text,
    fieldErrors?: FieldError[],
  ) {
    super(description);
    this.errorName = errorName;
    this.description = description;
    this.fieldErrors = fieldErrors;
    this.code = ERRORS[errorName].code;
    this.status = ERRORS[errorName].status;
  }
}
