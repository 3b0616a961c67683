import type { DossierQuery, Pager, QueryDocument, QueryTranslation } from '@dossierbase/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';
import { adminKeys, pickTranslation, useEnvironmentId } from '../admin/admin-api';

// The calls of saved queries (/api/dossierquery, spec document 1 section 7).

export const queryKeys = {
  all: ['dossier-query'] as const,
  list: (params: Record<string, unknown>) => ['dossier-query', 'list', params] as const,
  one: (id: number) => ['dossier-query', 'one', id] as const,
  count: (environment: number, entity: number, data: string) =>
    ['dossier-query', 'count', environment, entity, data] as const,
};

export interface QueryPage {
  results: DossierQuery[];
  pager: Pager;
}

/** One page of the environment's queries (of one entity when given), searched by name. */
export function useQueryPage(params: { defDossier?: number; search?: string; page: number; limit: number }) {
  const environment = useEnvironmentId();
  const query = { environment, ...params };
  return useQuery({
    queryKey: queryKeys.list(query),
    queryFn: ({ signal }) => api.get<QueryPage>('/dossierquery', query, signal),
    enabled: environment > 0,
    placeholderData: keepPreviousData,
  });
}

/** Every query of an entity (up to 500, as the spec's pickers load them). */
export function useEntityQueries(defDossier: number) {
  const environment = useEnvironmentId();
  const query = { environment, defDossier, limit: 500, page: 0 };
  return useQuery({
    queryKey: queryKeys.list(query),
    queryFn: ({ signal }) => api.get<QueryPage>('/dossierquery', query, signal).then((a) => a.results),
    enabled: environment > 0 && defDossier > 0,
  });
}

export function useDossierQuery(id: number) {
  return useQuery({
    queryKey: queryKeys.one(id),
    queryFn: ({ signal }) => api.get<DossierQuery>(`/dossierquery/${id}`, undefined, signal),
    enabled: id > 0,
  });
}

export interface QueryBody {
  data: QueryDocument;
  translations: QueryTranslation[];
}

export const createQuery = (body: QueryBody & { environment: number; defDossier: number }) =>
  api.post<DossierQuery>('/dossierquery', body);
export const patchQuery = (id: number, body: QueryBody) =>
  api.patch<DossierQuery>(`/dossierquery/${id}`, body);
export const deleteQuery = (id: number) => api.delete<unknown>(`/dossierquery/${id}`);
export const countQuery = (body: { environment: number; defDossier: number; data: QueryDocument }) =>
  api.post<{ items: number }>('/dossierquery/count', body);

/** The server's refusal to delete a query something uses (with `used_by`: where). */
export const QUERY_IN_USE = 'This query is still in use';

/** The query's search name in the reader's language, else its dashboard name, else #id. */
export function queryName(
  query: Pick<DossierQuery, 'id' | 'translations'> | undefined,
  locale: string | null,
): string {
  if (!query) return '';
  const tr = pickTranslation(query.translations, locale);
  return tr?.search_name || tr?.dashboard_name || `#${query.id}`;
}

/** Every admin screen that shows queries refetches after a change. */
export const queryAndAdminKeys = [queryKeys.all, adminKeys.all];
