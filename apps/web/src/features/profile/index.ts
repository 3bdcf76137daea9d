export { ProfilePage } from './components/profile-page';
export { ChangePasswordForm } from './components/change-password-form';
