import { PaytablesPage } from '@/features/paytables';
import { QueryRoot } from '@/lib/query-client';

export function PaytablesRoute() {
  return (
    <QueryRoot>
      <PaytablesPage />
    </QueryRoot>
  );
}
