import { useTranslation } from 'react-i18next';
import { IconButton } from '@/components/ui/button';
import { useChatStore } from '@/features/chat';
import { PromotionButtons } from '@/features/promotions';
import { useQuickPanel } from '@/features/quick-panel';
import { useSettingsPanel } from '@/features/settings-panel';

/** Buttons that sit in the toolbar on wide screens and move into the navbar drawer on phones. */
export function PanelButtons() {
  const { t } = useTranslation();
  const toggleChat = useChatStore((state) => state.toggle);
  const toggleQuick = useQuickPanel((state) => state.toggle);
  const toggleSettings = useSettingsPanel((state) => state.toggle);
  return (
    <div className="panel-buttons">
      <PromotionButtons />
      <div className="panel-buttons__icons">
        <IconButton icon="chat" label={t('toolbar.chat')} onClick={toggleChat} />
        <IconButton icon="panel" label={t('toolbar.quickPanel')} onClick={toggleQuick} />
        <IconButton icon="settings" label={t('toolbar.settings')} onClick={toggleSettings} />
      </div>
    </div>
  );
}
