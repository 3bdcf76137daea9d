import { BrowserBanner } from '@/features/system';
import { CallbackPage, LoginPage, LogoutPage } from '@/features/auth';

export function LoginRoute() {
  return <LoginPage banner={<BrowserBanner />} />;
}

export const LogoutRoute = LogoutPage;
export const CallbackRoute = CallbackPage;
