export { Shortcuts, ToolbarSearch } from './components/toolbar-search';
