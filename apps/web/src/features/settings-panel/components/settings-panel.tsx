import { Language } from '@reel/protocol/client';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { create } from 'zustand';
import { LanguageSelect } from '@/components/language-select';
import { SidePanel } from '@/components/ui/side-panel';
import { Switch } from '@/components/ui/switch';
import { useRuntimeSettings } from '@/config/runtime-settings';
import { LAYOUT_STYLES, THEMES, type ThemeName } from '@/config/themes';
import { messageForError } from '@/lib/auth';
import { toast } from '@/lib/toast-store';
import { updateUserSettings, useUserSettings, type ThemeParts, type UserSettings } from '@/lib/user-settings';

export const useSettingsPanel = create<{ open: boolean; toggle: () => void; close: () => void }>((set) => ({
  open: false,
  toggle: () => set((state) => ({ open: !state.open })),
  close: () => set({ open: false }),
}));

function save(patch: (current: UserSettings) => UserSettings) {
  updateUserSettings(patch).catch((error) => toast.error(messageForError(error)));
}

function ThemeSelect({ part }: { part: keyof ThemeParts }) {
  const { t } = useTranslation();
  const id = useId();
  const value = useUserSettings((state) => state.settings.theme[part]);
  return (
    <div className="select-field">
      <label htmlFor={id}>{t(`settingsPanel.${part}`)}</label>
      <select
        id={id}
        value={value}
        onChange={(event) => save((current) => ({ ...current, theme: { ...current.theme, [part]: event.target.value as ThemeName } }))}
      >
        {THEMES.map((theme) => (
          <option key={theme} value={theme}>
            {t(`settingsPanel.themeNames.${theme}`)}
          </option>
        ))}
      </select>
    </div>
  );
}

export function SettingsPanel() {
  const { t } = useTranslation();
  const { open, close } = useSettingsPanel();
  const settings = useUserSettings((state) => state.settings);
  // LANG_SELECT off: the operator fixes the language, here as on the login page and the toolbar.
  const langSelect = useRuntimeSettings((state) => state.settings.LANG_SELECT);
  const layoutId = useId();
  if (!open) return null;
  return (
    <SidePanel onClose={close} title={t('settingsPanel.title')} closeLabel={t('common.close')} widthPx={320}>
      <div className="settings">
        <fieldset className="settings__group">
          <legend>{t('settingsPanel.layoutStyle')}</legend>
          {LAYOUT_STYLES.map((style) => (
            <label key={style} className="radio">
              <input
                type="radio"
                name={layoutId}
                value={style}
                checked={settings.layout.style === style}
                onChange={() => save((current) => ({ ...current, layout: { ...current.layout, style } }))}
              />
              <span>{t(`settingsPanel.layouts.${style}`)}</span>
            </label>
          ))}
        </fieldset>
        <fieldset className="settings__group">
          <legend>{t('settingsPanel.container')}</legend>
          {(['fullwidth', 'boxed'] as const).map((mode) => (
            <label key={mode} className="radio">
              <input
                type="radio"
                name={`${layoutId}-mode`}
                value={mode}
                checked={settings.layout.mode === mode}
                onChange={() => save((current) => ({ ...current, layout: { ...current.layout, mode } }))}
              />
              <span>{t(`settingsPanel.${mode}`)}</span>
            </label>
          ))}
        </fieldset>
        <Switch
          label={t('settingsPanel.navbarFolded')}
          checked={settings.layout.navbarFolded}
          onChange={(navbarFolded) => save((current) => ({ ...current, layout: { ...current.layout, navbarFolded } }))}
        />
        <Switch
          label={t('settingsPanel.adminBar')}
          checked={settings.layout.adminBar}
          onChange={(adminBar) => save((current) => ({ ...current, layout: { ...current.layout, adminBar } }))}
        />
        <fieldset className="settings__group">
          <legend>{t('settingsPanel.direction')}</legend>
          {(['ltr', 'rtl'] as const).map((direction) => (
            <label key={direction} className="radio">
              <input
                type="radio"
                name={`${layoutId}-dir`}
                value={direction}
                checked={settings.direction === direction}
                onChange={() => save((current) => ({ ...current, direction }))}
              />
              <span>{t(`settingsPanel.${direction}`)}</span>
            </label>
          ))}
        </fieldset>
        {langSelect ? (
          <fieldset className="settings__group">
            <legend>{t('languages.label')}</legend>
            <LanguageSelect languages={[Language.tr, Language.en, Language.ar]} />
          </fieldset>
        ) : null}
        <fieldset className="settings__group">
          <legend>{t('settingsPanel.themes')}</legend>
          <ThemeSelect part="main" />
          <ThemeSelect part="navbar" />
          <ThemeSelect part="toolbar" />
          <ThemeSelect part="footer" />
        </fieldset>
        <fieldset className="settings__group">
          <legend>{t('settingsPanel.scheme')}</legend>
          <div className="scheme-grid">
            {THEMES.map((theme) => (
              <button
                key={theme}
                type="button"
                className="scheme"
                data-theme={theme}
                aria-label={t('settingsPanel.applyScheme', { theme: t(`settingsPanel.themeNames.${theme}`) })}
                onClick={() => save((current) => ({ ...current, theme: { main: theme, navbar: theme, toolbar: theme, footer: theme } }))}
              >
                <span className="scheme__bar" />
                <span className="scheme__body">{t(`settingsPanel.themeNames.${theme}`)}</span>
              </button>
            ))}
          </div>
        </fieldset>
        <Switch
          label={t('settingsPanel.customScrollbars')}
          checked={settings.customScrollbars}
          onChange={(customScrollbars) => save((current) => ({ ...current, customScrollbars }))}
        />
        <Switch label={t('settingsPanel.animations')} checked={settings.animations} onChange={(animations) => save((current) => ({ ...current, animations }))} />
      </div>
    </SidePanel>
  );
}
