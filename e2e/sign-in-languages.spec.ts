import { expect, test } from '@playwright/test';

/**
 * The language chosen on the sign-in screen: its texts (each language's own chunk, loaded when
 * chosen), the field errors of an empty submit and the window title; after a reload, the stored
 * choice again (the start-up loads its chunk before the first render).
 */
const LANGUAGES = [
  {
    code: 'sp',
    language: 'Idioma',
    heading: 'Iniciar sesión en Superadmin',
    login: 'Iniciar sesión',
    emailRequired: 'El correo electrónico es obligatorio',
    passwordRequired: 'La contraseña es obligatoria',
    title: 'Iniciar sesión | Super Admin Console',
  },
  {
    code: 'fr',
    language: 'Langue',
    heading: 'Connexion à Superadmin',
    login: 'Se connecter',
    emailRequired: 'L’e-mail est obligatoire',
    passwordRequired: 'Le mot de passe est obligatoire',
    title: 'Connexion | Super Admin Console',
  },
  {
    code: 'si',
    language: 'භාෂාව',
    heading: 'Superadmin වෙත පුරනය වන්න',
    login: 'පුරනය වන්න',
    emailRequired: 'ඊමේල් ලිපිනය අවශ්‍යයි',
    passwordRequired: 'මුරපදය අවශ්‍යයි',
    title: 'පුරනය | Super Admin Console',
  },
  {
    code: 'tr',
    language: 'Dil',
    heading: 'Superadmin oturumu açın',
    login: 'Giriş yap',
    emailRequired: 'E-posta zorunludur',
    passwordRequired: 'Şifre zorunludur',
    title: 'Giriş | Super Admin Console',
  },
] as const;

for (const l of LANGUAGES) {
  test(`the sign-in screen in ${l.code}: field errors and title in that language, kept after a reload`, async ({
    page,
  }) => {
    await page.goto('/login');
    await expect(page).toHaveTitle('Login | Super Admin Console');
    await page.getByLabel('Language').selectOption(l.code);
    await expect(page.getByRole('heading', { level: 1, name: l.heading })).toBeVisible();
    await expect(page).toHaveTitle(l.title);

    await page.getByRole('button', { name: l.login, exact: true }).click();
    await expect(page.getByText(l.emailRequired, { exact: true })).toBeVisible();
    await expect(page.getByText(l.passwordRequired, { exact: true })).toBeVisible();
    await expect(page.getByText('Email is required', { exact: true })).toHaveCount(0);

    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: l.heading })).toBeVisible();
    await expect(page).toHaveTitle(l.title);
    await page.getByLabel(l.language).selectOption('en');
    await expect(page.getByRole('heading', { level: 1, name: 'Sign in to Superadmin' })).toBeVisible();
    await expect(page).toHaveTitle('Login | Super Admin Console');
  });
}
