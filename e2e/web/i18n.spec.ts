import { expect, test } from '../product/fixtures';
import { signIn } from './helpers';

test('Turkish by default, then English and Arabic (right to left), remembered across reloads', async ({ page }) => {
  await page.goto('/login');
  await expect(page.locator('html')).toHaveAttribute('lang', 'tr');
  await expect(page.getByRole('heading', { name: 'Hesabınıza giriş yapın' })).toBeVisible();

  await page.getByRole('button', { name: 'İngilizce' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in to your account' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('dir', 'ltr');

  await page.getByRole('button', { name: 'Arabic' }).click();
  await expect(page.getByRole('heading', { name: 'سجّل الدخول إلى حسابك' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await expect(page.locator('html')).toHaveAttribute('lang', 'ar');

  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await page.getByLabel('البريد الإلكتروني أو اسم المستخدم').fill('demo');
  await page.getByLabel('كلمة المرور', { exact: true }).fill('demo1234');
  await page.getByRole('button', { name: 'تسجيل الدخول' }).click();
  await expect(page.getByRole('heading', { name: 'اختر مجموعة سلوت' })).toBeVisible();

  // The toolbar offers TR and EN.
  await page.getByRole('button', { name: 'التركية' }).click();
  await expect(page.getByRole('heading', { name: 'Bir Slot Grubu Seçin' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('dir', 'ltr');
  await page.getByRole('button', { name: 'İngilizce' }).click();
  await expect(page.getByRole('heading', { name: 'Choose a Slot Group' })).toBeVisible();
});

test('server codes are shown in the chosen language', async ({ page }) => {
  await page.goto('/login');
  await page.getByLabel('E-posta veya kullanıcı adı').fill('nobody-here');
  await page.getByLabel('Şifre', { exact: true }).fill('whatever');
  await page.getByRole('button', { name: 'Giriş' }).click();
  await expect(page.getByText('Kullanıcı adı veya şifre yanlış')).toBeVisible();
});

test('signed-in language switch keeps the page', async ({ page }) => {
  await page.addInitScript(() => localStorage.getItem('i18nextLng') || localStorage.setItem('i18nextLng', 'en'));
  await signIn(page);
  await page.goto('/profile');
  await page.getByRole('button', { name: 'Turkish' }).click();
  await expect(page).toHaveURL(/\/profile$/);
  await expect(page.getByRole('heading', { name: 'Hesap bilgileri' })).toBeVisible();
});
