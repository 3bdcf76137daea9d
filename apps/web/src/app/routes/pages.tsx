export {
  AdminRoleExamplePage as AdminRoleExampleRoute,
  DocumentationPage as DocumentationRoute,
  GuestRoleExamplePage as GuestRoleExampleRoute,
  NotFoundPage as NotFoundRoute,
  ServerErrorPage as ServerErrorRoute,
  StaffRoleExamplePage as StaffRoleExampleRoute,
  TemplateDemoPage as TemplateDemoRoute,
} from '@/features/pages';
