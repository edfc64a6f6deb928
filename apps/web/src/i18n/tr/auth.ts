import type { SignInPhrases } from '../en/auth.ts';
import type { SignInChromePhrases } from '../en/chrome.ts';

/** Turkish: every text of the sign-in screens; the signed-in console stays English. */
export const auth: SignInPhrases = {
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
  secondStepHeading: 'İki adımlı oturum açma',
  secondStepIntro: 'Şifreniz doğru. Şimdi ikinci faktörünüzle kimliğinizi doğrulayın.',
  usePasskey: 'Geçiş anahtarı kullan',
  orCode: 'Ya da bir kod girin',
  totpCode: 'Kimlik doğrulama uygulamanızdaki kod',
  recoveryCode: 'Kurtarma kodu',
  codeFormat: 'Kimlik doğrulama uygulamanızın gösterdiği 6 rakamı girin.',
  recoveryFormat: 'Bir kurtarma kodunu kaydettiğiniz gibi girin, örneğin abcd-efgh-2345.',
  verify: 'Doğrula',
  verifying: 'Denetleniyor…',
  useRecoveryCode: 'Bunun yerine kurtarma kodu kullan',
  useTotpCode: 'Bunun yerine uygulamanızdaki kodu kullan',
  secondStepGone: 'Bu oturum açma işleminin süresi doldu ya da zaten tamamlandı. Lütfen yeniden oturum açın.',
  passkeyCancelled: 'Geçiş anahtarı isteği kapatıldı ya da zaman aşımına uğradı. Lütfen yeniden deneyin.',
  enrolHeading: 'İki adımlı oturum açmayı kurun',
  enrolIntro:
    'Personel hesapları için ikinci bir faktör gereklidir. Devam etmek için bir geçiş anahtarı ya da kimlik doğrulama uygulaması ekleyin.',
  addPasskey: 'Geçiş anahtarı ekle',
  passkeyName: 'Geçiş anahtarının adı',
  passkeyNameHint: 'Örneğin: İş dizüstü bilgisayarı (en çok 64 karakter).',
  useAuthenticatorApp: 'Kimlik doğrulama uygulaması kullan',
  scanQr: 'QR kodunu kimlik doğrulama uygulamanızla tarayın ya da gizli anahtarı uygulamaya yazın.',
  qrLabel: 'Kimlik doğrulama uygulamanız için QR kodu',
  secretKey: 'Gizli anahtar',
  copy: 'Kopyala',
  copied: 'Kopyalandı.',
  confirmCode: 'Uygulamanın şu an gösterdiği kod',
  confirm: 'Onayla',
  recoveryHeading: 'Kurtarma kodlarınızı kaydedin',
  recoveryIntro:
    'Geçiş anahtarınızı ya da telefonunuzu kaybederseniz her kod bir kez oturum açmanızı sağlar. Yalnızca şimdi gösterilirler: güvenli bir yerde saklayın.',
  recoverySaved: 'Kaydettim, devam et',
  recoveryCopyAll: 'Tümünü kopyala',
  recoveryDownload: 'İndir (.txt)',
  recoveryPrint: 'Yazdır',
  recoveryCopied: 'Kurtarma kodları kopyalandı.',
  recoveryFileTitle: '{email} için kurtarma kodları; her biri bir kez çalışır.',
  sessionEndedTitle: 'Oturumunuz kapatıldı',
  sessionExpired: 'Oturumunuzun süresi doldu. Lütfen yeniden oturum açın.',
  sessionEndedByUser: 'Bu oturum Oturumlarım bölümünden kapatıldı. Lütfen yeniden oturum açın.',
  sessionEndedBySuperAdmin: 'Bir SuperAdmin bu oturumu kapattı. Lütfen yeniden oturum açın.',
  inviteHeading: 'Şifrenizi belirleyin',
  inviteIntro:
    'Konsola hoş geldiniz. Yeni hesabınız için bir şifre belirleyin; bu bağlantı yalnızca bir kez çalışır.',
  setPassword: 'Şifreyi belirle',
  loginTitle: 'Giriş',
  secondStepTitle: 'İkinci adım',
  enrolTitle: 'İkinci faktör kurulumu',
  errorEmailRequired: 'E-posta zorunludur',
  errorPasswordRequired: 'Şifre zorunludur',
  errorConfirmPasswordRequired: 'Şifre onayı zorunludur',
  errorEmailInvalid: 'Lütfen geçerli bir e-posta adresi girin.',
  errorPasswordRule:
    'Şifre en az 6 karakter olmalı; en az 1 küçük harf, en az 1 büyük harf, 1 sembol ve 1 rakam içermelidir.',
  errorPasswordsDoNotMatch: 'Şifreler eşleşmiyor.',
  errorResetUrl: 'Lütfen doğru şifre sıfırlama bağlantısını kullanın',
  errorPasskeyNameRequired: 'Geçiş anahtarının adı zorunludur.',
  errorPasskeyNameLength: 'Bir geçiş anahtarının adı en çok 64 karakter olabilir.',
  errorInvalidCredentials: 'Lütfen geçerli kimlik bilgileri kullanın.',
  errorGeneric: 'Bir hata oluştu. Lütfen yeniden deneyin.',
  errorValidation: 'İstek geçerli değil.',
  errorTooManyAttempts:
    'Bu adresten çok fazla başarısız oturum açma denemesi yapıldı. Lütfen yarın yeniden deneyin.',
  errorAccountLocked:
    'Çok fazla yanlış şifre girildi: bu hesap birkaç dakikalığına kilitlendi. Lütfen daha sonra yeniden deneyin.',
  errorLockedAtSecondStep:
    'Çok fazla başarısız oturum açma denemesi (yanlış şifre ya da kod): bu hesap birkaç dakikalığına kilitlendi. Lütfen daha sonra yeniden deneyin.',
  errorInvalidResetToken:
    'Bu şifre sıfırlama bağlantısı geçersiz ya da süresi dolmuş. Lütfen yeni bir bağlantı isteyin.',
  errorForeignConsoleUrl: 'Bu URL bu konsolun bir adresi değil.',
  errorSecondStepInvalid:
    'Bu oturum açma işleminin süresi doldu ya da zaten tamamlandı. Lütfen şifrenizle yeniden oturum açın.',
  errorWrongCode: 'Bu kod doğru değil ya da daha önce kullanıldı. Bir sonraki kodu bekleyip yeniden deneyin.',
  errorWrongRecoveryCode: 'Bu kurtarma kodu doğru değil ya da daha önce kullanıldı.',
  errorPasskeyRefused:
    'Bu geçiş anahtarı bu hesap için kabul edilmedi. Başka bir geçiş anahtarı ya da bir kod deneyin.',
  errorMfaSetupInvalid: 'İkinci faktör kurulamadı. Lütfen yeniden deneyin.',
  errorTotpNotStarted:
    'Önce bir kimlik doğrulama uygulamasının kurulumunu başlatın: gizli anahtarın süresi doldu ya da hiç oluşturulmadı.',
  errorPasskeyExpired: 'Geçiş anahtarı isteğinin süresi doldu. Lütfen yeniden deneyin.',
  errorMfaConflict: 'Bu ikinci faktör şu anda bu şekilde değiştirilemez.',
  errorTotpAlreadyOn:
    'Bu hesap için zaten bir kimlik doğrulama uygulaması kurulu. Başka birini kurmak için önce onu kaldırın.',
  errorTooManyRequests: 'Bu adresten çok fazla istek geldi. Lütfen daha sonra yeniden deneyin.',
  errorSignInBusy: 'Bu hesapta şu anda başka oturum açma işlemleri sürüyor. Lütfen birazdan yeniden deneyin.',
  errorUnavailable: 'Hizmet başlatılıyor ya da durduruluyor. Lütfen yeniden deneyin.',
  errorStoreUnavailable:
    'Hizmet şu anda veritabanına ulaşamıyor. Lütfen birkaç saniye sonra yeniden deneyin.',
  doneForgotPassword:
    'Bu e-posta adresine ait bir hesap varsa, şifresini sıfırlamak için bir bağlantı gönderdik.',
  doneResetPassword: 'Şifreniz sıfırlandı. Lütfen oturum açın.',
  doneInvitationAccepted: 'Şifreniz belirlendi. Lütfen oturum açın.',
};

/** The toasts' and the offline overlay's texts, which the sign-in screens show too. */
export const chrome: SignInChromePhrases = {
  offlineTitle: 'İnternet bağlantısı yok',
  offlineBody:
    'Çevrimdışısınız. Lütfen internet bağlantınızı denetleyin; yeniden çevrimiçi olduğunuzda konsol kaldığı yerden devam eder.',
  notifications: 'Bildirimler',
  dismiss: 'Bildirimi kapat',
};
