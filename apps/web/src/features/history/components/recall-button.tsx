import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { GameRecall } from './game-recall';

/** A history row's "last 10 games": the session's recall in a dialog. */
export function RecallButton({ sessionId, machine }: { sessionId: string; machine: string }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="ghost" onClick={() => setOpen(true)}>
        {t('history.recall.open')}
      </Button>
      <Dialog open={open} title={`${t('history.recall.title')}: ${machine}`} onClose={() => setOpen(false)} closeLabel={t('common.close')}>
        {open ? <GameRecall sessionId={sessionId} /> : null}
      </Dialog>
    </>
  );
}
