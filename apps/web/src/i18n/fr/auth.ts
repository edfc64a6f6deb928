import type { SignInPhrases } from '../en/auth.ts';
import type { SignInChromePhrases } from '../en/chrome.ts';

/** French: every text of the sign-in screens; the signed-in console stays English. */
export const auth: SignInPhrases = {
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
  secondStepHeading: 'Connexion en deux étapes',
  secondStepIntro:
    'Votre mot de passe est correct. Confirmez maintenant votre identité avec votre second facteur.',
  usePasskey: 'Utiliser une clé d’accès',
  orCode: 'Ou saisissez un code',
  totpCode: 'Code de votre application d’authentification',
  recoveryCode: 'Code de récupération',
  codeFormat: 'Saisissez les 6 chiffres affichés par votre application d’authentification.',
  recoveryFormat: 'Saisissez un code de récupération tel qu’enregistré, par exemple abcd-efgh-2345.',
  verify: 'Vérifier',
  verifying: 'Vérification…',
  useRecoveryCode: 'Utiliser plutôt un code de récupération',
  useTotpCode: 'Utiliser plutôt un code de votre application',
  secondStepGone: 'Cette connexion a expiré ou est déjà terminée. Veuillez vous reconnecter.',
  passkeyCancelled: 'La demande de clé d’accès a été fermée ou a expiré. Veuillez réessayer.',
  enrolHeading: 'Configurer la connexion en deux étapes',
  enrolIntro:
    'Un second facteur est obligatoire pour les comptes du personnel. Ajoutez une clé d’accès ou une application d’authentification pour continuer.',
  addPasskey: 'Ajouter une clé d’accès',
  passkeyName: 'Nom de la clé d’accès',
  passkeyNameHint: 'Par exemple : Ordinateur du bureau (64 caractères au plus).',
  useAuthenticatorApp: 'Utiliser une application d’authentification',
  scanQr: 'Scannez le code QR avec votre application d’authentification, ou saisissez-y la clé secrète.',
  qrLabel: 'Code QR pour votre application d’authentification',
  secretKey: 'Clé secrète',
  copy: 'Copier',
  copied: 'Copié.',
  confirmCode: 'Code affiché par l’application',
  confirm: 'Confirmer',
  recoveryHeading: 'Enregistrez vos codes de récupération',
  recoveryIntro:
    'Chaque code vous connecte une fois si vous perdez votre clé d’accès ou votre téléphone. Ils ne sont affichés que maintenant : conservez-les en lieu sûr.',
  recoverySaved: 'Je les ai enregistrés, continuer',
  recoveryCopyAll: 'Tout copier',
  recoveryDownload: 'Télécharger (.txt)',
  recoveryPrint: 'Imprimer',
  recoveryCopied: 'Les codes de récupération sont copiés.',
  recoveryFileTitle: 'Codes de récupération de {email}, chacun fonctionne une fois.',
  sessionEndedTitle: 'Vous avez été déconnecté',
  sessionExpired: 'Votre session a expiré. Veuillez vous reconnecter.',
  sessionEndedByUser: 'Cette session a été fermée depuis Mes sessions. Veuillez vous reconnecter.',
  sessionEndedBySuperAdmin: 'Un SuperAdmin a fermé cette session. Veuillez vous reconnecter.',
  inviteHeading: 'Définissez votre mot de passe',
  inviteIntro:
    'Bienvenue dans la console. Choisissez un mot de passe pour votre nouveau compte ; ce lien ne fonctionne qu’une seule fois.',
  setPassword: 'Définir le mot de passe',
  loginTitle: 'Connexion',
  secondStepTitle: 'Deuxième étape',
  enrolTitle: 'Configuration du second facteur',
  errorEmailRequired: 'L’e-mail est obligatoire',
  errorPasswordRequired: 'Le mot de passe est obligatoire',
  errorConfirmPasswordRequired: 'La confirmation du mot de passe est obligatoire',
  errorEmailInvalid: 'Veuillez saisir une adresse e-mail valide.',
  errorPasswordRule:
    'Le mot de passe doit comporter au moins 6 caractères, dont au moins 1 lettre minuscule, au moins 1 lettre majuscule, 1 symbole et 1 chiffre.',
  errorPasswordsDoNotMatch: 'Les mots de passe ne correspondent pas.',
  errorResetUrl: 'Veuillez utiliser une URL de réinitialisation du mot de passe correcte',
  errorPasskeyNameRequired: 'Le nom de la clé d’accès est obligatoire.',
  errorPasskeyNameLength: 'Le nom d’une clé d’accès comporte 64 caractères au plus.',
  errorInvalidCredentials: 'Veuillez utiliser des identifiants valides.',
  errorGeneric: 'Une erreur s’est produite. Veuillez réessayer.',
  errorValidation: 'La requête n’est pas valide.',
  errorTooManyAttempts:
    'Trop de tentatives de connexion échouées depuis cette adresse. Veuillez réessayer demain.',
  errorAccountLocked:
    'Trop de mots de passe erronés : ce compte est verrouillé pendant quelques minutes. Veuillez réessayer plus tard.',
  errorLockedAtSecondStep:
    'Trop de tentatives de connexion échouées (mots de passe ou codes erronés) : ce compte est verrouillé pendant quelques minutes. Veuillez réessayer plus tard.',
  errorInvalidResetToken:
    'Ce lien de réinitialisation du mot de passe n’est pas valide ou a expiré. Veuillez en demander un nouveau.',
  errorForeignConsoleUrl: 'L’URL n’est pas une adresse de cette console.',
  errorSecondStepInvalid:
    'Cette connexion a expiré ou est déjà terminée. Veuillez vous reconnecter avec votre mot de passe.',
  errorWrongCode: 'Ce code n’est pas correct ou a déjà été utilisé. Attendez le code suivant et réessayez.',
  errorWrongRecoveryCode: 'Ce code de récupération n’est pas correct ou a déjà été utilisé.',
  errorPasskeyRefused:
    'Cette clé d’accès n’a pas été acceptée pour ce compte. Essayez une autre clé d’accès ou un code.',
  errorMfaSetupInvalid: 'Le second facteur n’a pas pu être configuré. Veuillez réessayer.',
  errorTotpNotStarted:
    'Commencez d’abord la configuration d’une application d’authentification : son secret a expiré ou n’a jamais été créé.',
  errorPasskeyExpired: 'La demande de clé d’accès a expiré. Veuillez réessayer.',
  errorMfaConflict: 'Ce second facteur ne peut pas être modifié de cette façon pour le moment.',
  errorTotpAlreadyOn:
    'Une application d’authentification est déjà configurée pour ce compte. Supprimez-la d’abord pour en configurer une autre.',
  errorTooManyRequests: 'Trop de requêtes depuis cette adresse. Veuillez réessayer plus tard.',
  errorSignInBusy:
    'Ce compte est occupé par d’autres connexions en ce moment. Veuillez réessayer dans un instant.',
  ssoButton: 'Se connecter avec {name}',
  ssoOr: 'ou',
  ssoSigningIn: 'Connexion en cours…',
  breakGlassLink: 'Se connecter avec un mot de passe (compte de secours)',
  ssoCallbackTitle: 'Authentification unique',
  errorSsoRefused:
    'L’authentification unique n’a pas abouti. Veuillez réessayer ou contacter votre administrateur.',
  errorPasswordSignInOff:
    'La connexion par mot de passe est désactivée. Veuillez utiliser l’authentification unique.',
  errorSsoOff: 'L’authentification unique n’est pas configurée.',
  errorUnavailable: 'Le service est en cours de démarrage ou d’arrêt. Veuillez réessayer.',
  errorStoreUnavailable:
    'Le service ne peut pas joindre sa base de données pour le moment. Veuillez réessayer dans quelques secondes.',
  doneForgotPassword:
    'Si un compte existe pour cette adresse e-mail, nous avons envoyé un lien pour réinitialiser son mot de passe.',
  doneResetPassword: 'Votre mot de passe a été réinitialisé. Veuillez vous connecter.',
  doneInvitationAccepted: 'Votre mot de passe a été défini. Veuillez vous connecter.',
};

/** The toasts' and the offline overlay's texts, which the sign-in screens show too. */
export const chrome: SignInChromePhrases = {
  offlineTitle: 'Pas de connexion internet',
  offlineBody:
    'Vous êtes hors ligne. Vérifiez votre connexion internet ; la console reprendra dès que vous serez de nouveau en ligne.',
  notifications: 'Notifications',
  dismiss: 'Fermer la notification',
};
