import type { LogPage } from '@dossierbase/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';

// The change log (GET /api/log): the environment's for admins, one dossier's for holders of dossierlog.

export interface LogFilters {
  environment: number;
  dossier?: number;
  entity?: number;
  user?: number;
  /** one type or several */
  type?: string | readonly string[];
  from?: string;
  to?: string;
  page: number;
  limit: number;
}

export function useLog(filters: LogFilters | null) {
  return useQuery({
    queryKey: ['log', filters],
    queryFn: ({ signal }) => api.get<LogPage>('/log', { ...filters }, signal),
    enabled: filters !== null,
    placeholderData: keepPreviousData,
  });
}

/**
 * A logged value as text: rich text without its markup (shown as text, never as HTML); options, users
 * and links are logged as their ids.
 */
export function logValueText(value: unknown): string {
  if (value === null || value === undefined || value === '') return '–';
  if (typeof value === 'string' && /<[a-z][^>]*>/i.test(value))
    return new DOMParser().parseFromString(value, 'text/html').body.textContent?.trim() || '–';
  if (Array.isArray(value)) return value.length ? value.map(logValueText).join(', ') : '–';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}
