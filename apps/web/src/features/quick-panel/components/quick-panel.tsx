import { Layout, type QuickPanelData } from '@reel/protocol/client';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { create } from 'zustand';
import { SidePanel } from '@/components/ui/side-panel';
import { Switch } from '@/components/ui/switch';
import { useRuntimeSettings } from '@/config/runtime-settings';
import { updateUserSettings, useUserSettings, type UserSettings } from '@/lib/user-settings';
import { getQuickPanelData } from '../api/get-quick-panel-data';

export const useQuickPanel = create<{ open: boolean; toggle: () => void; close: () => void }>((set) => ({
  open: false,
  toggle: () => set((state) => ({ open: !state.open })),
  close: () => set({ open: false }),
}));

type QuickKey = keyof UserSettings['quickSettings'];
/**
 * Only toggles a player notices. The template's Notifications, Cloud Sync and Retro Thrusters did
 * nothing and are gone; the click sound of the game buttons is the player's to switch off (shown
 * while the operator's CLICK_SOUND allows it).
 */
const QUICK_SETTINGS: { key: QuickKey; label: string }[] = [
  { key: 'clickSound', label: 'quickPanel.clickSound' },
];

export function QuickPanel() {
  const { t, i18n } = useTranslation();
  const { open, close } = useQuickPanel();
  const quick = useUserSettings((state) => state.settings.quickSettings);
  const clickSoundAllowed = useRuntimeSettings((state) => state.settings.CLICK_SOUND);
  const [data, setData] = useState<QuickPanelData | null>(null);

  useEffect(() => {
    if (!open || data) return;
    getQuickPanelData().then(setData, () => setData({ events: [], notes: [] }));
  }, [open, data]);

  // Closed, the panel costs nothing: its dates are the first Intl formatting of a page (tens of ms on a phone).
  if (!open) return null;
  const now = new Date();
  const setQuick = (key: QuickKey, value: boolean) =>
    void updateUserSettings((current) => ({
      ...current,
      quickSettings: { ...current.quickSettings, [key]: value },
    })).catch(() => undefined);

  return (
    <SidePanel
      onClose={close}
      title={t('quickPanel.title')}
      closeLabel={t('common.close')}
      widthPx={Layout.quickPanelWidth}
    >
      <section className="quick__section" aria-labelledby="quick-today">
        <h3 id="quick-today" className="quick__heading">
          {t('quickPanel.today')}
        </h3>
        <p className="quick__day">{now.toLocaleDateString(i18n.language, { weekday: 'long' })}</p>
        <p className="quick__date">
          {now.toLocaleDateString(i18n.language, { day: 'numeric', month: 'long', year: 'numeric' })}
        </p>
      </section>
      <ItemSection
        id="quick-events"
        title={t('quickPanel.events')}
        empty={t('quickPanel.noEvents')}
        items={data?.events}
      />
      <ItemSection
        id="quick-notes"
        title={t('quickPanel.notes')}
        empty={t('quickPanel.noNotes')}
        items={data?.notes}
      />
      {clickSoundAllowed ? (
        <section className="quick__section" aria-labelledby="quick-settings">
          <h3 id="quick-settings" className="quick__heading">
            {t('quickPanel.quickSettings')}
          </h3>
          {QUICK_SETTINGS.map((item) => (
            <Switch
              key={item.key}
              label={t(item.label)}
              checked={quick[item.key]}
              onChange={(value) => setQuick(item.key, value)}
            />
          ))}
        </section>
      ) : null}
    </SidePanel>
  );
}

/** Events and notes: a heading, an empty text once loaded, and the items. */
function ItemSection({
  id,
  title,
  empty,
  items,
}: {
  id: string;
  title: string;
  empty: string;
  items: QuickPanelData['events'] | undefined;
}) {
  return (
    <section className="quick__section" aria-labelledby={id}>
      <h3 id={id} className="quick__heading">
        {title}
      </h3>
      {items && items.length === 0 ? <p className="muted">{empty}</p> : null}
      <ul className="quick__list">
        {items?.map((item) => (
          <li key={item.id}>
            <strong>{item.title}</strong>
            <span className="muted">{item.detail}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
