import { MESSAGES } from '@sac/contract/messages';

/** Sign-in, forgot-password, reset-password, change-password and logout texts. */
export const auth = {
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

export type AuthPhrases = typeof auth;
