import type { AuditVerifyResponse } from '@reel/protocol';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { adminApi } from '../lib/admin-api';
import { AdminPath } from '../lib/contract';
import { QueryState } from '../components/query-state';

/** The chain verifier on demand (the same check as `npm run operator -- verify-audit`). */
export function AuditVerify() {
  const { t } = useTranslation('admin');
  const query = useQuery({
    queryKey: ['admin', 'audit-verify'],
    queryFn: () => adminApi.get<AuditVerifyResponse>(AdminPath.auditVerify),
    enabled: false,
  });
  return (
    <div className="admin-card">
      <Button variant="secondary" busy={query.isFetching} onClick={() => void query.refetch()}>
        {t('audit.verify')}
      </Button>
      {query.isFetched || query.isError ? (
        <QueryState query={query}>
          {(answer) => (
            <p role="status" className={answer.ok ? 'admin-result admin-result--ok' : 'admin-result admin-result--bad'}>
              {answer.ok
                ? t('audit.verifyOk', { rows: answer.rows, head: answer.head_seq, signed: answer.signed_seq })
                : t('audit.verifyBad', { seq: answer.first_bad_seq, problem: answer.problem ?? '' })}
            </p>
          )}
        </QueryState>
      ) : null}
    </div>
  );
}
