export { QuickPanel, useQuickPanel } from './components/quick-panel';
