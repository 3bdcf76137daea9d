import { ApiPath, type ProfileResponse } from '@reel/protocol/client';
import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

const profileQueryKey = ['profile'] as const;

function getProfile(signal?: AbortSignal): Promise<ProfileResponse> {
  return api.get<ProfileResponse>(ApiPath.profile, { signal });
}

export function useProfile() {
  return useQuery({ queryKey: profileQueryKey, queryFn: ({ signal }) => getProfile(signal) });
}
