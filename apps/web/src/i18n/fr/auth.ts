import type { AuthPhrases } from '../en/auth.ts';

/** French: sign-in texts only; everything else falls back to English. */
export const auth: Partial<AuthPhrases> = {
  signInHeading: 'Connexion à Superadmin',
  signInIntro:
    'Utilisez votre compte du personnel pour gérer les clients, les sites et l’équipe des super-utilisateurs.',
  forgotHeading: 'Mot de passe oublié',
  forgotIntro:
    'Saisissez votre adresse e-mail et nous vous enverrons un lien pour réinitialiser votre mot de passe.',
  resetHeading: 'Réinitialiser le mot de passe',
  resetIntro: 'Choisissez un nouveau mot de passe pour votre compte.',
  email: 'E-mail',
  password: 'Mot de passe',
  confirmPassword: 'Confirmer le mot de passe',
  passwordHint: 'Au moins 6 caractères avec une minuscule, une majuscule, un chiffre et l’un de !@#$%^&*.',
  login: 'Se connecter',
  submit: 'Envoyer',
  resetPassword: 'Réinitialiser le mot de passe',
  forgotLink: 'Mot de passe oublié',
  backToLogin: 'Retour à la connexion',
  language: 'Langue',
  signingIn: 'Connexion…',
  sending: 'Envoi…',
  resetting: 'Réinitialisation…',
};
