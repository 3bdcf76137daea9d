import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';

export const PAGE_SIZE = 50;

/** Offset paging of a console list (the server's `limit`/`offset`, answering `total`). */
export function Pager({ offset, total, onOffset }: { offset: number; total: number; onOffset: (offset: number) => void }) {
  const { t } = useTranslation('admin');
  if (total <= PAGE_SIZE) return null;
  return (
    <div className="admin-pager">
      <Button variant="secondary" disabled={offset === 0} onClick={() => onOffset(Math.max(0, offset - PAGE_SIZE))}>
        {t('common.previous')}
      </Button>
      <span>{t('common.pageOf', { from: offset + 1, to: Math.min(total, offset + PAGE_SIZE), total })}</span>
      <Button variant="secondary" disabled={offset + PAGE_SIZE >= total} onClick={() => onOffset(offset + PAGE_SIZE)}>
        {t('common.next')}
      </Button>
    </div>
  );
}
