export { PaytablesPage } from './components/paytables-page';
