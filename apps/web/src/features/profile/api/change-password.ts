import { ApiPath } from '@reel/protocol/client';
import { api } from '@/lib/api-client';

export function changePassword(oldPassword: string, newPassword: string): Promise<unknown> {
  return api.post(ApiPath.changePassword, { old_password: oldPassword, new_password: newPassword });
}
