import { ProfilePage } from '@/features/profile';
import { ProtectionPage } from '@/features/protection';
import { QueryRoot } from '@/lib/query-client';

export function ProfileRoute() {
  return (
    <QueryRoot>
      <ProfilePage />
    </QueryRoot>
  );
}

export function ProtectionRoute() {
  return (
    <QueryRoot>
      <ProtectionPage />
    </QueryRoot>
  );
}
