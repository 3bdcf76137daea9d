export { NotFoundPage, ServerErrorPage } from './components/error-pages';
export {
  AdminRoleExamplePage,
  DocumentationPage,
  GuestRoleExamplePage,
  StaffRoleExamplePage,
  TemplateDemoPage,
} from './components/template-pages';
