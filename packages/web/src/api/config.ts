import type { ClientConfig } from '@dossierbase/core';
import { useQuery } from '@tanstack/react-query';
import { api } from './client';
import { queryKeys } from './query-keys';

export const DEFAULT_CONFIG: ClientConfig = {
  release: '',
  help_contact: '',
  idle_limit_seconds: 900,
  idle_prompt_seconds: 300,
  sso: { google: false, azure: false },
};

export function useClientConfig() {
  const query = useQuery({
    queryKey: queryKeys.config,
    queryFn: ({ signal }) => api.get<ClientConfig>('/config', undefined, signal),
    staleTime: 300_000,
  });
  return { ...query, config: { ...DEFAULT_CONFIG, ...query.data } };
}
