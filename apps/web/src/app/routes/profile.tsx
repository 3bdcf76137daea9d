import { ProfilePage } from '@/features/profile';
import { QueryRoot } from '@/lib/query-client';

export function ProfileRoute() {
  return (
    <QueryRoot>
      <ProfilePage />
    </QueryRoot>
  );
}
