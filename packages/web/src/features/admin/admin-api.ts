import type {
  DefDossier,
  DefDossierDefField,
  DefDossierLink,
  DefField,
  DisplayCustomView,
  DisplayItem,
  DisplayPosition,
  EntityPermission,
  ListOption,
  RoleDetail,
  RoleUsage,
} from '@dossierbase/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api, apiRequest } from '../../api/client';
import { environmentStore, useEnvironment } from '../environments/environment-store';
import { getEnvironment } from '../environments/environments-api';

export interface ListAnswer<T> {
  results: T[];
  pager?: unknown;
}

type Query = Record<string, string | number | boolean | null | undefined>;

export const adminKeys = {
  all: ['admin-config'] as const,
  list: (resource: string, query: Query) => ['admin-config', resource, query] as const,
  one: (resource: string, id: number) => ['admin-config', resource, 'one', id] as const,
};

export function listAll<T>(resource: string, query: Query, signal?: AbortSignal) {
  return api.get<ListAnswer<T>>(`/${resource}`, query, signal).then((answer) => answer.results ?? []);
}

function useList<T>(resource: string, query: Query, enabled = true) {
  return useQuery({
    queryKey: adminKeys.list(resource, query),
    queryFn: ({ signal }) => listAll<T>(resource, query, signal),
    enabled,
  });
}

export const createItem = <T>(resource: string, body: unknown) => api.post<T>(`/${resource}`, body);
export const patchItem = <T>(resource: string, id: number | string, body: unknown) =>
  api.patch<T>(`/${resource}/${id}`, body);
export const putItem = <T>(resource: string, id: number | string, body: unknown) =>
  apiRequest<T>(`/${resource}/${id}`, { method: 'PUT', body });
export const deleteItem = (resource: string, id: number) => api.delete<unknown>(`/${resource}/${id}`);
export const putPermission = (body: {
  environment: number;
  defDossier: number;
  role: number;
  actions: string[];
}) => apiRequest<EntityPermission>('/permission', { method: 'PUT', body });

export function useEnvironmentId(): number {
  return useEnvironment()?.id ?? 0;
}

export function useEntities() {
  const environment = useEnvironmentId();
  return useList<DefDossier>('defdossier', { environment, limit: 500 }, environment > 0);
}
export function useEntity(id: number) {
  return useQuery({
    queryKey: adminKeys.one('defdossier', id),
    queryFn: () => api.get<DefDossier>(`/defdossier/${id}`),
    enabled: id > 0,
  });
}
export function useBaseFields() {
  const environment = useEnvironmentId();
  return useList<DefField>('deffield', { environment, limit: 500 }, environment > 0);
}
export function useBaseField(id: number) {
  return useQuery({
    queryKey: adminKeys.one('deffield', id),
    queryFn: () => api.get<DefField>(`/deffield/${id}`),
    enabled: id > 0,
  });
}
export function useListOptions(defField: number) {
  return useList<ListOption>('deffieldlist', { defField, limit: 500 }, defField > 0);
}
export function useDataFields(defDossier: number) {
  return useList<DefDossierDefField>('defdossierdeffield', { defDossier, limit: 500 }, defDossier > 0);
}
export function useLinks(defDossier: number) {
  return useList<DefDossierLink>('defdossierlink', { defDossier, limit: 500 }, defDossier > 0);
}
export function usePositions(defDossier: number) {
  return useList<DisplayPosition>('displayposition', { defDossier, limit: 500 }, defDossier > 0);
}
export function useDisplayItems(defDossier: number, view?: string) {
  return useList<DisplayItem>('displayitem', { defDossier, view, limit: 500 }, defDossier > 0);
}
export function useCustomViews(defDossier: number) {
  return useList<DisplayCustomView>('displaycustomview', { defDossier, limit: 500 }, defDossier > 0);
}
/** The environment's roles (up to 200, as the spec's pickers load them). */
export function useRoles() {
  const environment = useEnvironmentId();
  return useList<RoleDetail>('role', { environment, limit: 200 }, environment > 0);
}
export function useRole(id: number) {
  return useQuery({
    queryKey: adminKeys.one('role', id),
    queryFn: () => api.get<RoleDetail>(`/role/${id}`),
    enabled: id > 0,
  });
}
/** Where the role is used; read afresh whenever it is asked for (a delete depends on it). */
export function useRoleUsage(id: number, enabled: boolean) {
  return useQuery({
    queryKey: adminKeys.one('role-usage', id),
    queryFn: () => api.get<RoleUsage>(`/role/${id}/usage`),
    enabled: enabled && id > 0,
    staleTime: 0,
  });
}
/** Deletes a role; `detach` first takes it out of every place that uses it (one transaction). */
export const deleteRole = (id: number, detach: boolean) =>
  apiRequest<unknown>(`/role/${id}`, { method: 'DELETE', query: detach ? { detach: true } : {} });

/** The role's name in the reader's language: its translation, else the name it was given. */
export function roleName(role: Pick<RoleDetail, 'name' | 'translations'>, locale: string | null): string {
  return pickTranslation(role.translations, locale)?.name || role.name;
}

/**
 * Per-entity permissions of the environment (of one entity when `defDossier` is given). The entity
 * editor's Permissions tab and the /permissions matrix both read and write them here (putPermission).
 */
export function usePermissions(defDossier?: number) {
  const environment = useEnvironmentId();
  return useQuery({
    queryKey: adminKeys.list('permission', { environment, defDossier }),
    queryFn: () =>
      api
        .get<ListAnswer<EntityPermission>>('/permission', { environment, defDossier })
        .then((answer) => answer.results),
    enabled: environment > 0 && (defDossier === undefined || defDossier > 0),
  });
}

/** Refetches everything of this screen set and the stored environment, so the shell menu updates. */
export function useRefreshAdmin() {
  const queryClient = useQueryClient();
  return async (environmentToo = false) => {
    await queryClient.invalidateQueries({ queryKey: adminKeys.all });
    if (environmentToo) await refreshEnvironment();
  };
}

export async function refreshEnvironment() {
  const current = environmentStore.get();
  if (!current) return;
  try {
    const fresh = await getEnvironment(current.id);
    environmentStore.set({ ...current, ...fresh });
  } catch {
    // The menu keeps its old state; the admin screens still show the change.
  }
}

/** The text of a translated record for a locale, falling back to the language and then the first one. */
export function pickTranslation<T extends { culture: string }>(
  translations: readonly T[] | undefined,
  locale: string | null,
): T | undefined {
  const list = translations ?? [];
  const language = locale?.slice(0, 2);
  return (
    list.find((tr) => tr.culture === locale) ??
    list.find((tr) => tr.culture?.slice(0, 2) === language) ??
    list[0]
  );
}

export function entityName(
  entity: Pick<DefDossier, 'id' | 'translations'> | undefined,
  locale: string | null,
): string {
  if (!entity) return '';
  const tr = pickTranslation(entity.translations, locale);
  return tr?.name || tr?.name_plural || `#${entity.id}`;
}

export function newUuid(): string {
  return crypto.randomUUID();
}
