export { SettingsPanel, useSettingsPanel } from './components/settings-panel';
