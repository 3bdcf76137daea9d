export { Shortcuts, ToolbarSearch } from './components/toolbar-search';
export { searchEntries } from './search-rules';
