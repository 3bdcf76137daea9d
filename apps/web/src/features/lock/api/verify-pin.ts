import { ApiPath } from '@reel/protocol/client';
import { api } from '@/lib/api-client';

/** The server compares the PIN with its argon2 hash; a wrong PIN rejects with code 40002. */
export function verifyPin(pin: string): Promise<unknown> {
  return api.post(ApiPath.verifyPin, { pin }, { allowUnauthorized: true });
}
