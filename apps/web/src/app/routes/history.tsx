import { SlotSessionsPage } from '@/features/history';
import { QueryRoot } from '@/lib/query-client';

export { TransactionsPage as TransactionsRoute } from '@/features/history';

/** Each row's game recall asks the server through the query client. */
export function SlotSessionsRoute() {
  return (
    <QueryRoot>
      <SlotSessionsPage />
    </QueryRoot>
  );
}
