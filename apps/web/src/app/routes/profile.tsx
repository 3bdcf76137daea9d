export { ProfilePage as ProfileRoute } from '@/features/profile';
