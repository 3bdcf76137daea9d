import { render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { setupI18n, setupSettings } from '@/testing/test-utils';
import { SettingsPanel, useSettingsPanel } from './settings-panel';

beforeAll(async () => {
  await setupI18n('en');
});

afterEach(() => useSettingsPanel.setState({ open: false }));

describe('settings panel language choice', () => {
  it('offers the languages while LANG_SELECT is on', () => {
    setupSettings({ LANG_SELECT: true });
    useSettingsPanel.setState({ open: true });
    render(<SettingsPanel />);
    expect(screen.getAllByRole('group', { name: 'Language' }).length).toBeGreaterThan(0);
    expect(screen.getByRole('button', { name: 'Turkish' })).toBeTruthy();
  });

  it('hides them while LANG_SELECT is off, as the login page and the toolbar do', () => {
    setupSettings({ LANG_SELECT: false });
    useSettingsPanel.setState({ open: true });
    render(<SettingsPanel />);
    expect(screen.getByRole('dialog', { name: 'Theme settings' })).toBeTruthy();
    expect(screen.queryByRole('group', { name: 'Language' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Turkish' })).toBeNull();
    expect(screen.queryByText('Language')).toBeNull();
  });
});
