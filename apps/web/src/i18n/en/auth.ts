import { SESSION_ENDED_MESSAGES, SUCCESS_MESSAGES } from '@sac/contract/auth';
import { ERRORS } from '@sac/contract/errors';
import { fieldRequired, MESSAGES } from '@sac/contract/messages';
import { MFA_MESSAGES } from '@sac/contract/mfa';

/**
 * Texts of the sign-in screens: sign-in, forgot and reset password, the invitation (set your
 * password), the second step and the set-up of a first factor. Every language has each of them
 * (SignInPhrases); a test lists what one misses.
 */
export const signIn = {
  signInHeading: MESSAGES.signInHeading as string,
  signInIntro: 'Use your staff account to manage customers, sites and the super-user team.',
  forgotHeading: 'Forgot password',
  forgotIntro: 'Enter your email address and we will send you a link to reset your password.',
  resetHeading: 'Reset password',
  resetIntro: 'Choose a new password for your account.',
  inviteHeading: 'Set your password',
  inviteIntro: 'Welcome to the console. Choose a password for your new account; this link works once.',
  setPassword: 'Set Password',
  email: 'Email',
  password: 'Password',
  confirmPassword: 'Confirm Password',
  passwordHint:
    'At least 6 characters with a lowercase letter, an uppercase letter, a digit and one of !@#$%^&*.',
  login: 'Login',
  submit: 'Submit',
  resetPassword: 'Reset Password',
  forgotLink: 'Forgot password',
  backToLogin: 'Back to login',
  language: 'Language',
  signingIn: 'Signing in…',
  sending: 'Sending…',
  resetting: 'Resetting…',
  // The second step of a sign-in, and the set-up of a first factor at sign-in (all five languages)
  secondStepHeading: 'Two-step sign-in',
  secondStepIntro: 'Your password is right. Now confirm it is you with your second factor.',
  usePasskey: 'Use a passkey',
  orCode: 'Or enter a code',
  totpCode: 'Code from your authenticator app',
  recoveryCode: 'Recovery code',
  codeFormat: 'Enter the 6 digits your authenticator app shows.',
  recoveryFormat: 'Enter a recovery code as saved, like abcd-efgh-2345.',
  verify: 'Verify',
  verifying: 'Checking…',
  useRecoveryCode: 'Use a recovery code instead',
  useTotpCode: 'Use a code from your app instead',
  secondStepGone: 'This sign-in has expired or was already completed. Please sign in again.',
  passkeyCancelled: 'The passkey prompt was closed or timed out. Please try again.',
  enrolHeading: 'Set up two-step sign-in',
  enrolIntro:
    'A second factor is required for staff accounts. Add a passkey or an authenticator app to continue.',
  addPasskey: 'Add a passkey',
  passkeyName: 'Passkey name',
  passkeyNameHint: 'For example: Work laptop (at most 64 characters).',
  useAuthenticatorApp: 'Use an authenticator app',
  scanQr: 'Scan the QR code with your authenticator app, or type the secret key into it.',
  qrLabel: 'QR code for your authenticator app',
  secretKey: 'Secret key',
  copy: 'Copy',
  copied: 'Copied.',
  confirmCode: 'Code the app shows now',
  confirm: 'Confirm',
  recoveryHeading: 'Save your recovery codes',
  recoveryIntro:
    'Each code signs you in once if you lose your passkey or phone. They are shown only now: keep them somewhere safe.',
  recoverySaved: 'I have saved them, continue',
  recoveryCopyAll: 'Copy all',
  recoveryDownload: 'Download (.txt)',
  recoveryPrint: 'Print',
  recoveryCopied: 'The recovery codes are copied.',
  recoveryFileTitle: 'Recovery codes for {email}, each works once.',
  sessionEndedTitle: 'You were signed out',
  sessionExpired: ERRORS.unauthenticated.text as string,
  sessionEndedByUser: SESSION_ENDED_MESSAGES['ended-by-user'] as string,
  sessionEndedBySuperAdmin: SESSION_ENDED_MESSAGES['ended-by-superadmin'] as string,
  // What the document title names the sign-in screens by
  loginTitle: 'Login',
  secondStepTitle: 'Second Step',
  enrolTitle: 'Enrol',
  // The contract's and the API's texts these screens show, in their exact English words: field
  // errors, then the API's answers (found by their English text, else by error code)
  errorEmailRequired: fieldRequired('Email'),
  errorPasswordRequired: fieldRequired('Password'),
  errorConfirmPasswordRequired: fieldRequired('Confirm Password'),
  errorEmailInvalid: MESSAGES.emailInvalidLogin as string,
  errorPasswordRule: MESSAGES.passwordRule as string,
  errorPasswordsDoNotMatch: MESSAGES.passwordsDoNotMatch as string,
  errorResetUrl: MESSAGES.resetUrlMissingToken as string,
  errorPasskeyNameRequired: MFA_MESSAGES.passkeyNameRequired as string,
  errorPasskeyNameLength: MFA_MESSAGES.passkeyNameLength as string,
  errorInvalidCredentials: MESSAGES.invalidCredentials as string,
  errorGeneric: MESSAGES.genericError as string,
  errorValidation: ERRORS.validation.text as string,
  errorTooManyAttempts: ERRORS.tooManyAttempts.text as string,
  errorAccountLocked: ERRORS.accountLocked.text as string,
  errorLockedAtSecondStep: MFA_MESSAGES.locked as string,
  errorInvalidResetToken: ERRORS.invalidResetToken.text as string,
  errorForeignConsoleUrl: ERRORS.foreignConsoleUrl.text as string,
  errorSecondStepInvalid: ERRORS.secondStepInvalid.text as string,
  errorWrongCode: ERRORS.wrongSecondFactor.text as string,
  errorWrongRecoveryCode: MFA_MESSAGES.wrongRecoveryCode as string,
  errorPasskeyRefused: MFA_MESSAGES.passkeyRefused as string,
  errorMfaSetupInvalid: ERRORS.mfaSetupInvalid.text as string,
  errorTotpNotStarted: MFA_MESSAGES.totpNotStarted as string,
  errorPasskeyExpired: MFA_MESSAGES.passkeyExpired as string,
  errorMfaConflict: ERRORS.mfaConflict.text as string,
  errorTotpAlreadyOn: MFA_MESSAGES.totpAlreadyOn as string,
  errorTooManyRequests: ERRORS.tooManyRequests.text as string,
  errorSignInBusy: ERRORS.signInBusy.text as string,
  ssoButton: 'Sign in with {name}',
  ssoOr: 'or',
  ssoSigningIn: 'Signing you in…',
  breakGlassLink: 'Sign in with a password (break-glass account)',
  ssoCallbackTitle: 'Single sign-on',
  errorSsoRefused: ERRORS.ssoRefused.text as string,
  errorPasswordSignInOff: ERRORS.passwordSignInOff.text as string,
  errorSsoOff: ERRORS.ssoOff.text as string,
  errorUnavailable: ERRORS.unavailable.text as string,
  errorStoreUnavailable: ERRORS.storeUnavailable.text as string,
  doneForgotPassword: SUCCESS_MESSAGES.forgotPassword as string,
  doneResetPassword: SUCCESS_MESSAGES.resetPassword as string,
  doneInvitationAccepted: SUCCESS_MESSAGES.invitationAccepted as string,
};

/** Texts of the signed-in account screens (change password, sessions) and logout: English only. */
const account = {
  changePasswordHeading: 'Change password',
  mySessionsHeading: 'My sessions',
  mySessionsIntro:
    'Where your account is signed in now. End a session you do not recognise: it is refused from its next call. Sessions also end by themselves after a while unused, and at the end of their lifetime.',
  endOtherSessions: 'End all other sessions',
  changePasswordIntro: 'Your other sessions end when the password changes.',
  oldPassword: 'Old Password',
  newPassword: 'New Password',
  changePassword: 'Change Password',
  changing: 'Changing…',
  loggingOut: 'Signing out…',
};

/** Sign-in, forgot-password, reset-password, second-step, set-up, change-password and logout texts. */
export const auth = { ...signIn, ...account };

/** A translation of the sign-in screens: every phrase, none left to English. */
export type SignInPhrases = Record<keyof typeof signIn, string>;
