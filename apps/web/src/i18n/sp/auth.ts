import type { SignInPhrases } from '../en/auth.ts';
import type { SignInChromePhrases } from '../en/chrome.ts';

/** Spanish: every text of the sign-in screens; the signed-in console stays English. */
export const auth: SignInPhrases = {
  signInHeading: 'Iniciar sesión en Superadmin',
  signInIntro: 'Utilice su cuenta de personal para gestionar clientes, sitios y el equipo de superusuarios.',
  forgotHeading: 'Olvidé mi contraseña',
  forgotIntro: 'Introduzca su correo electrónico y le enviaremos un enlace para restablecer su contraseña.',
  resetHeading: 'Restablecer contraseña',
  resetIntro: 'Elija una nueva contraseña para su cuenta.',
  email: 'Correo electrónico',
  password: 'Contraseña',
  confirmPassword: 'Confirmar contraseña',
  passwordHint: 'Al menos 6 caracteres con una minúscula, una mayúscula, un dígito y uno de !@#$%^&*.',
  login: 'Iniciar sesión',
  submit: 'Enviar',
  resetPassword: 'Restablecer contraseña',
  forgotLink: '¿Olvidó su contraseña?',
  backToLogin: 'Volver al inicio de sesión',
  language: 'Idioma',
  signingIn: 'Iniciando sesión…',
  sending: 'Enviando…',
  resetting: 'Restableciendo…',
  secondStepHeading: 'Inicio de sesión en dos pasos',
  secondStepIntro: 'Su contraseña es correcta. Ahora confirme su identidad con su segundo factor.',
  usePasskey: 'Usar una llave de acceso',
  orCode: 'O introduzca un código',
  totpCode: 'Código de su aplicación de autenticación',
  recoveryCode: 'Código de recuperación',
  codeFormat: 'Introduzca los 6 dígitos que muestra su aplicación de autenticación.',
  recoveryFormat: 'Introduzca un código de recuperación tal como lo guardó, por ejemplo abcd-efgh-2345.',
  verify: 'Verificar',
  verifying: 'Comprobando…',
  useRecoveryCode: 'Usar un código de recuperación',
  useTotpCode: 'Usar un código de su aplicación',
  secondStepGone: 'Este inicio de sesión ha caducado o ya se completó. Inicie sesión de nuevo.',
  passkeyCancelled: 'La solicitud de llave de acceso se cerró o caducó. Inténtelo de nuevo.',
  enrolHeading: 'Configurar el inicio de sesión en dos pasos',
  enrolIntro:
    'Las cuentas del personal necesitan un segundo factor. Añada una llave de acceso o una aplicación de autenticación para continuar.',
  addPasskey: 'Añadir una llave de acceso',
  passkeyName: 'Nombre de la llave de acceso',
  passkeyNameHint: 'Por ejemplo: Portátil del trabajo (64 caracteres como máximo).',
  useAuthenticatorApp: 'Usar una aplicación de autenticación',
  scanQr: 'Escanee el código QR con su aplicación de autenticación o escriba en ella la clave secreta.',
  qrLabel: 'Código QR para su aplicación de autenticación',
  secretKey: 'Clave secreta',
  copy: 'Copiar',
  copied: 'Copiado.',
  confirmCode: 'Código que muestra ahora la aplicación',
  confirm: 'Confirmar',
  recoveryHeading: 'Guarde sus códigos de recuperación',
  recoveryIntro:
    'Cada código le permite iniciar sesión una vez si pierde su llave de acceso o su teléfono. Solo se muestran ahora: guárdelos en un lugar seguro.',
  recoverySaved: 'Ya los he guardado, continuar',
  recoveryCopyAll: 'Copiar todo',
  recoveryDownload: 'Descargar (.txt)',
  recoveryPrint: 'Imprimir',
  recoveryCopied: 'Los códigos de recuperación se han copiado.',
  recoveryFileTitle: 'Códigos de recuperación de {email}; cada uno sirve una vez.',
  sessionEndedTitle: 'Se cerró su sesión',
  sessionExpired: 'Su sesión ha caducado. Vuelva a iniciar sesión.',
  sessionEndedByUser: 'Esta sesión se cerró desde Mis sesiones. Vuelva a iniciar sesión.',
  sessionEndedBySuperAdmin: 'Un SuperAdmin cerró esta sesión. Vuelva a iniciar sesión.',
  inviteHeading: 'Establezca su contraseña',
  inviteIntro:
    'Le damos la bienvenida a la consola. Elija una contraseña para su nueva cuenta; este enlace solo funciona una vez.',
  setPassword: 'Establecer contraseña',
  loginTitle: 'Iniciar sesión',
  secondStepTitle: 'Segundo paso',
  enrolTitle: 'Configurar el segundo factor',
  errorEmailRequired: 'El correo electrónico es obligatorio',
  errorPasswordRequired: 'La contraseña es obligatoria',
  errorConfirmPasswordRequired: 'La confirmación de la contraseña es obligatoria',
  errorEmailInvalid: 'Introduzca un correo electrónico válido.',
  errorPasswordRule:
    'La contraseña debe tener como mínimo 6 caracteres, al menos 1 letra minúscula, al menos 1 letra mayúscula, 1 símbolo y 1 dígito.',
  errorPasswordsDoNotMatch: 'Las contraseñas no coinciden.',
  errorResetUrl: 'Utilice una URL correcta para restablecer la contraseña',
  errorPasskeyNameRequired: 'El nombre de la llave de acceso es obligatorio.',
  errorPasskeyNameLength: 'El nombre de una llave de acceso tiene como máximo 64 caracteres.',
  errorInvalidCredentials: 'Utilice credenciales válidas.',
  errorGeneric: 'Se ha producido un error. Inténtelo de nuevo.',
  errorValidation: 'La solicitud no es válida.',
  errorTooManyAttempts:
    'Demasiados intentos fallidos de inicio de sesión desde esta dirección. Inténtelo de nuevo mañana.',
  errorAccountLocked:
    'Demasiadas contraseñas incorrectas: esta cuenta está bloqueada durante unos minutos. Inténtelo de nuevo más tarde.',
  errorLockedAtSecondStep:
    'Demasiados intentos fallidos de inicio de sesión (contraseñas o códigos incorrectos): esta cuenta está bloqueada durante unos minutos. Inténtelo de nuevo más tarde.',
  errorInvalidResetToken:
    'Este enlace para restablecer la contraseña no es válido o ha caducado. Solicite uno nuevo.',
  errorForeignConsoleUrl: 'La URL no es una dirección de esta consola.',
  errorSecondStepInvalid:
    'Este inicio de sesión ha caducado o ya se completó. Vuelva a iniciar sesión con su contraseña.',
  errorWrongCode:
    'Ese código no es correcto o ya se ha utilizado. Espere al siguiente código e inténtelo de nuevo.',
  errorWrongRecoveryCode: 'Ese código de recuperación no es correcto o ya se ha utilizado.',
  errorPasskeyRefused:
    'Esa llave de acceso no se ha aceptado para esta cuenta. Pruebe con otra llave de acceso o con un código.',
  errorMfaSetupInvalid: 'No se ha podido configurar el segundo factor. Inténtelo de nuevo.',
  errorTotpNotStarted:
    'Inicie primero la configuración de una aplicación de autenticación: su secreto ha caducado o nunca se generó.',
  errorPasskeyExpired: 'La solicitud de llave de acceso ha caducado. Inténtelo de nuevo.',
  errorMfaConflict: 'Este segundo factor no se puede cambiar de esta forma ahora.',
  errorTotpAlreadyOn:
    'Esta cuenta ya tiene configurada una aplicación de autenticación. Quítela primero para configurar otra.',
  errorTooManyRequests: 'Demasiadas solicitudes desde esta dirección. Inténtelo de nuevo más tarde.',
  errorSignInBusy:
    'Esta cuenta está ocupada con otros inicios de sesión en este momento. Inténtelo de nuevo en un momento.',
  ssoButton: 'Iniciar sesión con {name}',
  ssoOr: 'o',
  ssoSigningIn: 'Iniciando sesión…',
  breakGlassLink: 'Iniciar sesión con contraseña (cuenta de emergencia)',
  ssoCallbackTitle: 'Inicio de sesión único',
  errorSsoRefused:
    'El inicio de sesión único no se completó. Inténtelo de nuevo o consulte a su administrador.',
  errorPasswordSignInOff:
    'El inicio de sesión con contraseña está desactivado. Utilice el inicio de sesión único.',
  errorSsoOff: 'El inicio de sesión único no está configurado.',
  errorUnavailable: 'El servicio se está iniciando o deteniendo. Inténtelo de nuevo.',
  errorStoreUnavailable:
    'El servicio no puede acceder a su base de datos en este momento. Inténtelo de nuevo en unos segundos.',
  doneForgotPassword:
    'Si existe una cuenta con ese correo electrónico, le hemos enviado un enlace para restablecer su contraseña.',
  doneResetPassword: 'Su contraseña se ha restablecido. Inicie sesión.',
  doneInvitationAccepted: 'Su contraseña se ha establecido. Inicie sesión.',
};

/** The toasts' and the offline overlay's texts, which the sign-in screens show too. */
export const chrome: SignInChromePhrases = {
  offlineTitle: 'Sin conexión a internet',
  offlineBody:
    'No tiene conexión. Compruebe su conexión a internet; la consola continuará cuando vuelva a estar en línea.',
  notifications: 'Notificaciones',
  dismiss: 'Cerrar la notificación',
};
