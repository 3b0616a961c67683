import {
  type DisplayItem,
  type DossierListBody,
  type EntityPermissionsAnswer,
  type ListOption,
  valueRefsOf,
} from '@dossierbase/core';
import { keepPreviousData, useQueries, useQuery } from '@tanstack/react-query';
import { ApiError, api, isApiError } from '../../../api/client';
import { itemFieldType } from '../../../fields/helpers';

// The calls of the dossier list screen (spec doc 2 section 7).

export const dossierListKeys = {
  all: ['dossier-list'] as const,
  list: (entityId: number, query: string) => ['dossier-list', entityId, 'list', query] as const,
  items: (entityId: number, view: string) => ['dossier-list', entityId, 'items', view] as const,
  abilities: (entityId: number) => ['dossier-list', entityId, 'abilities'] as const,
  tabs: (entityId: number, ids: number[]) => ['dossier-list', entityId, 'tabs', ids] as const,
  subscriptions: (environmentId: number, ids: number[]) =>
    ['dossier-list', 'subscriptions', environmentId, ids] as const,
  options: (defFieldId: number) => ['dossier-list', 'options', defFieldId] as const,
};

/** One page of dossiers; the previous page stays on screen while the next one loads. */
export function useDossierList(entityId: number, query: string) {
  return useQuery({
    queryKey: dossierListKeys.list(entityId, query),
    queryFn: ({ signal }) => api.get<DossierListBody>(`/contentdossier?${query}`, undefined, signal),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

/** What the caller may do with the entity's dossiers (open to every member; the server's policy). */
export function useEntityAbilities(entityId: number) {
  return useQuery({
    queryKey: dossierListKeys.abilities(entityId),
    queryFn: () => api.get<EntityPermissionsAnswer>(`/defdossier/${entityId}/permissions`),
    select: (answer) => answer.abilities,
  });
}

/**
 * Display items of the search and advanced-search views, in that order. The display item list is
 * an admin call on the server: other users get none (a 403 is treated as "no search items").
 */
export function useSearchItems(entityId: number) {
  const views = ['search', 'advanced-search'];
  const answers = useQueries({
    queries: views.map((view) => ({
      queryKey: dossierListKeys.items(entityId, view),
      queryFn: async () => {
        try {
          const answer = await api.get<{ results: DisplayItem[] }>('/displayitem', {
            defDossier: entityId,
            view,
            limit: 200,
          });
          return answer.results;
        } catch (error) {
          if (isApiError(error, 403)) return [];
          throw error;
        }
      },
    })),
  });
  return {
    items: answers.flatMap((answer) => answer.data ?? []),
    isLoading: answers.some((answer) => answer.isLoading),
  };
}

/** Per dossier whether its tabs may be opened (POST /displayposition/credentials). */
/** The dossiers of the page the user subscribes to (the rows' bells). */
export function useSubscriptions(environmentId: number | undefined, ids: number[]) {
  return useQuery({
    queryKey: dossierListKeys.subscriptions(environmentId ?? 0, ids),
    queryFn: () =>
      api.post<{ content_dossier_id: number }[]>('/contentdossier/subscriptions', {
        environment: environmentId,
        ids,
      }),
    enabled: environmentId !== undefined && ids.length > 0,
    staleTime: 0,
    select: (answer) => new Set(answer.map((row) => row.content_dossier_id)),
  });
}

export function useTabsAllowed(entityId: number, ids: number[]) {
  return useQuery({
    queryKey: dossierListKeys.tabs(entityId, ids),
    queryFn: () =>
      api.post<{ id: number; tabs_allowed: boolean }[]>('/displayposition/credentials', {
        defDossier: entityId,
        ids,
      }),
    enabled: ids.length > 0,
    staleTime: 0,
    select: (answer) => new Map(answer.map((row) => [row.id, row.tabs_allowed])),
  });
}

/**
 * List options per base field of the list/tree items, for labels and the option search. Only the
 * environment admin may read them (GET /deffieldlist); for others the map stays empty.
 */
export function useItemOptions(items: readonly DisplayItem[], admin: boolean) {
  const fieldIds = [
    ...new Set(
      items.flatMap((item) => {
        const id = item.def_dossier_def_field?.def_field.id;
        return valueRefsOf(itemFieldType(item)) === 'options' && id ? [id] : [];
      }),
    ),
  ].sort((a, b) => a - b);
  const answers = useQueries({
    queries: fieldIds.map((defField) => ({
      queryKey: dossierListKeys.options(defField),
      queryFn: () =>
        api
          .get<{ results: ListOption[] }>('/deffieldlist', { defField, limit: 500 })
          .then((answer) => answer.results),
      enabled: admin,
    })),
  });
  const byField = new Map<number, ListOption[]>();
  fieldIds.forEach((id, index) => {
    const data = answers[index]?.data;
    if (data) byField.set(id, data);
  });
  return (item: DisplayItem): ListOption[] | undefined => {
    const id = item.def_dossier_def_field?.def_field.id;
    return id ? byField.get(id) : undefined;
  };
}

export type BulkAction =
  | 'delete'
  | 'archive'
  | 'dearchive'
  | 'subscribe'
  | 'unsubscribe'
  | 'favourite'
  | 'unfavourite';

/** Dossiers per archive call of a selection (the progress bar moves per call). */
const ARCHIVE_CHUNK = 250;

/** The call of one bulk action for one dossier. */
export function bulkCall(action: BulkAction, id: number): Promise<unknown> {
  switch (action) {
    case 'delete':
      return api.delete(`/contentdossier/${id}`);
    case 'archive':
      return api.post(`/contentdossier/${id}/archive`);
    case 'dearchive':
      return api.post(`/contentdossier/${id}/dearchive`);
    case 'subscribe':
      return api.post(`/contentdossier/${id}/subscription/1`);
    case 'unsubscribe':
      return api.post(`/contentdossier/${id}/subscription/0`);
    case 'favourite':
      return api.post(`/contentdossier/${id}/favorite`);
    case 'unfavourite':
      return api.delete(`/contentdossier/${id}/favorite`);
  }
}

/** A dossier the action failed for, and the reason (the server's answer). */
export interface BulkFailure {
  id: number;
  error: unknown;
}

/**
 * Runs the action for every id one after another; a failure does not stop the rest
 * (spec doc 2 section 4, bulk delete). Returns the ids that failed, each with its error.
 */
export async function runBulk(
  action: BulkAction,
  ids: readonly number[],
  onProgress?: (done: number) => void,
  environmentId?: number,
): Promise<BulkFailure[]> {
  const failed: BulkFailure[] = [];
  let done = 0;
  // archive and dearchive take the selection in a few calls, each one transaction on the server
  if ((action === 'archive' || action === 'dearchive') && environmentId !== undefined) {
    for (let i = 0; i < ids.length; i += ARCHIVE_CHUNK) {
      const chunk = ids.slice(i, i + ARCHIVE_CHUNK);
      try {
        const answer = await api.post<{ failed: { id: number; message: string }[] }>(
          `/contentdossier/${action}`,
          {
            environment: environmentId,
            ids: chunk,
          },
        );
        for (const f of answer.failed)
          failed.push({
            id: f.id,
            error: new ApiError(f.message === 'Not found' ? 404 : 403, { message: f.message }),
          });
      } catch (error) {
        for (const id of chunk) failed.push({ id, error });
      }
      done += chunk.length;
      onProgress?.(done);
    }
    return failed;
  }
  for (const id of ids) {
    try {
      await bulkCall(action, id);
    } catch (error) {
      failed.push({ id, error });
    }
    done += 1;
    onProgress?.(done);
  }
  return failed;
}
