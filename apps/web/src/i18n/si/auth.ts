import type { AuthPhrases } from '../en/auth.ts';

/** Sinhala (ISO 639-1 'si'): sign-in texts only; everything else falls back to English. */
export const auth: Partial<AuthPhrases> = {
  signInHeading: 'Superadmin වෙත පුරනය වන්න',
  signInIntro: 'පාරිභෝගිකයින්, අඩවි සහ සුපිරි පරිශීලක කණ්ඩායම කළමනාකරණය කිරීමට ඔබගේ කාර්ය මණ්ඩල ගිණුම භාවිතා කරන්න.',
  forgotHeading: 'මුරපදය අමතකද',
  forgotIntro: 'ඔබගේ ඊමේල් ලිපිනය ඇතුළත් කරන්න; මුරපදය යළි සැකසීමට අපි සබැඳියක් එවන්නෙමු.',
  resetHeading: 'මුරපදය යළි සකසන්න',
  resetIntro: 'ඔබගේ ගිණුම සඳහා නව මුරපදයක් තෝරන්න.',
  email: 'ඊමේල්',
  password: 'මුරපදය',
  confirmPassword: 'මුරපදය තහවුරු කරන්න',
  login: 'පුරනය වන්න',
  submit: 'යොමු කරන්න',
  resetPassword: 'මුරපදය යළි සකසන්න',
  forgotLink: 'මුරපදය අමතකද',
  backToLogin: 'පුරනය වෙත ආපසු',
  language: 'භාෂාව',
  signingIn: 'පුරනය වෙමින්…',
  sending: 'යවමින්…',
  resetting: 'යළි සකසමින්…',
};
