/*
 * Step-up, without zod (the console's API client reads these on every screen).
 */
/**
 * Sensitive actions need the session's holder to have proved who they are within STEP_UP_MINUTES
 * (default 10): at sign-in, or by a step-up with a second factor (the password for an account
 * without one). docs/decisions.md, "Step-up: a recent proof, not a second sign-in".
 */
export const STEP_UP_DEFAULT_MINUTES = 10;

export const STEP_UP_MESSAGES = {
  done: 'Thank you: you can go ahead.',
  cancelled: 'The action was not done: it needs you to confirm it is you.',
  wrongPassword: 'That password is not correct.',
  useFactor: 'This account has a second factor: confirm with it, not with the password.',
  signInAgain:
    'This account signs in through single sign-on only: sign in again to confirm it is you, then do the action again.',
  tokenCannot: 'This action needs a person who signed in recently; an API token cannot make it.',
} as const;
