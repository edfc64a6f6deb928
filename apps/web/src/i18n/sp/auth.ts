import type { AuthPhrases } from '../en/auth.ts';

/** Spanish: sign-in texts only; everything else falls back to English. */
export const auth: Partial<AuthPhrases> = {
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
};
