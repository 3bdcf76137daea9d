export { LoginPage, whatsappHref } from './components/login-page';
export { LoginForm } from './components/login-form';
export { LogoutPage } from './components/logout-page';
export { CallbackPage } from './components/callback-page';
