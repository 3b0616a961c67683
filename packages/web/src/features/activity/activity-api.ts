import type { ActivityAnswer } from '@dossierbase/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';

// User activity of an environment (GET /api/environment/{id}/activity), for its admins.

export function useActivity(environment: number, days: number) {
  return useQuery({
    queryKey: ['activity', environment, days],
    queryFn: ({ signal }) =>
      api.get<ActivityAnswer>(`/environment/${environment}/activity`, { days }, signal),
    enabled: environment > 0,
    placeholderData: keepPreviousData,
  });
}
