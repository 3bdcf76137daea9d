export { ProtectionPage } from './components/protection-page';
