import { RootPath, mergeSettings, type Settings } from '@reel/protocol/client';
import { create } from 'zustand';

interface RuntimeSettingsState {
  settings: Settings;
  loaded: boolean;
}

export const useRuntimeSettings = create<RuntimeSettingsState>(() => ({
  settings: mergeSettings({}),
  loaded: false,
}));

export function getSettings(): Settings {
  return useRuntimeSettings.getState().settings;
}

/**
 * Fetches `/Settings.json` and lays it over the defaults key by key. A missing or broken file must
 * never stop the app: the operator may serve the static build without one.
 */
export async function loadRuntimeSettings(fetchImpl: typeof fetch = fetch): Promise<Settings> {
  let settings: Settings;
  try {
    const response = await fetchImpl(RootPath.settings, { cache: 'no-store' });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    settings = mergeSettings(await response.json());
  } catch (error) {
    console.info('Settings.json could not be loaded, starting with the defaults.', error);
    settings = mergeSettings({});
  }
  useRuntimeSettings.setState({ settings, loaded: true });
  return settings;
}

export function setRuntimeSettingsForTest(override: Partial<Settings>): void {
  useRuntimeSettings.setState({ settings: { ...mergeSettings({}), ...override }, loaded: true });
}
