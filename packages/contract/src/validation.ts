import { z } from 'zod';
import { PASSWORD_MIN_LENGTH, PHONE_NUMBER_LENGTH } from './constants.ts';
import { fieldRequired, MESSAGES } from './messages.ts';

/**
 * Email of spec section 5: a local part, @, then a bracketed IPv4 address or a dotted domain whose
 * last label has at least two letters.
 */
export const EMAIL_PATTERN =
  /^(([^<>()[\]\\.,;:\s@"]+(\.[^<>()[\]\\.,;:\s@"]+)*)|(".+"))@((\[[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}\])|(([a-zA-Z\-0-9]+\.)+[a-zA-Z]{2,}))$/;

export const isValidEmail = (value: string): boolean => EMAIL_PATTERN.test(value);

/** Password rule: 6+ characters with a lowercase, an uppercase, a digit and one of !@#$%^&*. */
export function isStrongPassword(value: string): boolean {
  return (
    value.length >= PASSWORD_MIN_LENGTH &&
    /[a-z]/.test(value) &&
    /[A-Z]/.test(value) &&
    /\d/.test(value) &&
    /[!@#$%^&*]/.test(value)
  );
}

/** Phone number: the first message that applies, or undefined when valid. */
export function phoneError(value: string): string | undefined {
  if (!/^\d*$/.test(value)) return MESSAGES.phoneNotNumber;
  if (value.length !== PHONE_NUMBER_LENGTH) return MESSAGES.phoneLength;
  return undefined;
}

const URL_SCHEME = /^https?:\/\//i;
const HOST_LABEL = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/i;
const PORT = /^\d{1,5}$/;
const WHITESPACE = /\s/;
/** Longer than any address a browser keeps in its bar: refused before any parsing. */
const URL_MAX_LENGTH = 2048;

/**
 * URL-like text: an optional http/https prefix, two or more dotted host labels, an optional port
 * (1 to 65535), an optional path without spaces. Scheme and host are case-insensitive. Parsed
 * piece by piece with anchored, linear patterns: no backtracking over the caller's text.
 */
export function isUrlLike(value: string): boolean {
  if (value.length > URL_MAX_LENGTH) return false;
  const scheme = URL_SCHEME.exec(value);
  const rest = scheme ? value.slice(scheme[0].length) : value;
  const slash = rest.indexOf('/');
  const authority = slash < 0 ? rest : rest.slice(0, slash);
  if (slash >= 0 && WHITESPACE.test(rest.slice(slash))) return false;
  const colon = authority.indexOf(':');
  const host = colon < 0 ? authority : authority.slice(0, colon);
  if (colon >= 0) {
    const port = authority.slice(colon + 1);
    if (!PORT.test(port) || Number(port) < 1 || Number(port) > 65_535) return false;
  }
  const labels = host.split('.');
  return labels.length >= 2 && labels.every((l) => l.length <= 63 && HOST_LABEL.test(l));
}

/** Two lists are equal as sets only with the same length and the same members. */
export function setEquals<T>(a: readonly T[], b: readonly T[]): boolean {
  if (a.length !== b.length) return false;
  const members = new Set(a);
  return b.every((x) => members.has(x));
}

const GENERATED_PASSWORD_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/**
 * A generated password: 8 letters or digits from a CSPRNG, then '1@' (so it always satisfies the
 * password rule's digit and symbol). Rejection sampling keeps every character equally likely.
 */
export function generatePassword(): string {
  const n = GENERATED_PASSWORD_ALPHABET.length; // 62
  const limit = 256 - (256 % n);
  let out = '';
  while (out.length < 8) {
    const bytes = globalThis.crypto.getRandomValues(new Uint8Array(16));
    for (const b of bytes) {
      if (b < limit && out.length < 8) out += GENERATED_PASSWORD_ALPHABET[b % n];
    }
  }
  return `${out}1@`;
}
export const GENERATED_PASSWORD_PATTERN = /^[A-Za-z0-9]{8}1@$/;

/** Decimal digits, with a minus that the schema refuses where negatives are not allowed. */
const DECIMAL_DIGITS = /^-?[0-9]+$/;

/** What a form shows for an integer field left empty or holding anything but digits. */
export const WHOLE_NUMBER_MESSAGE = 'Please enter a whole number.';

/**
 * An integer of a query or a body, checked by `schema`: a JSON number, or text of decimal digits
 * (a query's values are text). Every integer of the contract goes through here: z.coerce.number()
 * read '0x1aa' as 426 and ' 12', '1e3', '12.0', '0b1', '' and true as numbers too. Anything else
 * fails with the schema's own type message when it has one, else WHOLE_NUMBER_MESSAGE (not zod's
 * 'expected number, received string', which is all a cleared form field would otherwise say).
 */
export const decimalInteger = <T extends z.ZodNumber>(schema: T) => {
  const ownTypeMessage = schema._zod.def.error !== undefined;
  return z.preprocess((v, ctx) => {
    if (typeof v === 'string' && DECIMAL_DIGITS.test(v)) return Number(v);
    if (typeof v === 'number' || ownTypeMessage) return v;
    ctx.addIssue({ code: 'custom', message: WHOLE_NUMBER_MESSAGE, input: v });
    return z.NEVER;
  }, schema);
};

/**
 * A required text field, trimmed, with the sign-in forms' '{field} is required' message. An empty
 * value stops there (abort), so later checks such as the email or password rule add no second message.
 */
export const requiredText = (label: string) =>
  z
    .string({ error: fieldRequired(label) })
    .trim()
    .min(1, { error: fieldRequired(label), abort: true });

/** Email as the sign-in forms check it: required, then valid. */
export const loginEmail = requiredText('Email').refine(isValidEmail, MESSAGES.emailInvalidLogin);

/** Email as the other forms check it: 'Email is required.' then 'Email is invalid.'. */
export const email = z
  .string({ error: MESSAGES.emailRequired })
  .trim()
  .min(1, { error: MESSAGES.emailRequired, abort: true })
  .refine(isValidEmail, MESSAGES.emailInvalid);

export const strongPassword = (label: string) =>
  requiredText(label).refine(isStrongPassword, MESSAGES.passwordRule);

export const phoneNumber = z
  .string()
  .trim()
  .superRefine((v, ctx) => {
    const message = phoneError(v);
    if (message) ctx.addIssue({ code: 'custom', message });
  });

export const urlLike = z.string().trim().refine(isUrlLike, 'Please enter a valid URL.');
