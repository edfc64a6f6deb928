import type { AuthPhrases } from '../en/auth.ts';

/** Turkish: sign-in texts only; everything else falls back to English. */
export const auth: Partial<AuthPhrases> = {
  signInHeading: 'Superadmin oturumu açın',
  signInIntro: 'Müşterileri, siteleri ve süper kullanıcı ekibini yönetmek için personel hesabınızı kullanın.',
  forgotHeading: 'Şifremi unuttum',
  forgotIntro: 'E-posta adresinizi girin; şifrenizi sıfırlamanız için size bir bağlantı gönderelim.',
  resetHeading: 'Şifreyi sıfırla',
  resetIntro: 'Hesabınız için yeni bir şifre belirleyin.',
  email: 'E-posta',
  password: 'Şifre',
  confirmPassword: 'Şifreyi onayla',
  passwordHint:
    'En az 6 karakter: bir küçük harf, bir büyük harf, bir rakam ve !@#$%^&* karakterlerinden biri.',
  login: 'Giriş yap',
  submit: 'Gönder',
  resetPassword: 'Şifreyi sıfırla',
  forgotLink: 'Şifremi unuttum',
  backToLogin: 'Girişe dön',
  language: 'Dil',
  signingIn: 'Giriş yapılıyor…',
  sending: 'Gönderiliyor…',
  resetting: 'Sıfırlanıyor…',
};
