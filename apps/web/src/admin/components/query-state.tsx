import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { FormAlert } from '@/components/ui/form-alert';
import { Spinner } from '@/components/ui/spinner';
import { errorText } from './reason-dialog';

/** A query's loading spinner, or its refusal with a retry, or its data. */
export function QueryState<T>({ query, children }: { query: UseQueryResult<T>; children: (data: T) => ReactNode }) {
  const { t } = useTranslation('admin');
  if (query.isPending) return <Spinner label={t('common.loading')} />;
  if (query.isError)
    return (
      <div className="admin-error">
        <FormAlert>{errorText(query.error)}</FormAlert>
        <Button variant="secondary" onClick={() => void query.refetch()}>
          {t('common.retry')}
        </Button>
      </div>
    );
  return <>{children(query.data)}</>;
}
