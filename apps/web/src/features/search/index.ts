export { Shortcuts, ToolbarSearch } from './components/toolbar-search';
export { searchEntries, toggleShortcut } from './search-rules';
