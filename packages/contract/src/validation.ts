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

/** URL-like text: optional http/https prefix, dotted host labels, optional port, optional path. */
const URL_LIKE_PATTERN =
  /^(https?:\/\/)?([a-zA-Z0-9]([a-zA-Z0-9-]*[a-zA-Z0-9])?\.)+[a-zA-Z0-9-]+(:\d{1,5})?(\/\S*)?$/;
export const isUrlLike = (value: string): boolean => URL_LIKE_PATTERN.test(value);

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
