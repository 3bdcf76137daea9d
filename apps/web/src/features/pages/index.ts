// The pages' own styles come with their chunk, not with the app's stylesheet every page loads.
import './template-pages.css';
export { NotFoundPage, ServerErrorPage } from './components/error-pages';
export { DocumentationPage } from './components/documentation-page';
export { SearchDemoPage, type SearchEntry } from './components/search-page';
export {
  AdminRoleExamplePage,
  GuestRoleExamplePage,
  StaffRoleExamplePage,
  TemplateDemoPage,
} from './components/template-pages';
