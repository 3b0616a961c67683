import type { DefDossier, DisplayItem, DossierListBody, EntityAbilities } from '@dossierbase/core';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../api/client';
import { dossierListKeys } from '../list/list-api';

// What the timeline, gantt and hour registration views read: the entity (its view settings, spec doc
// 3 section 3), the linked dossiers through the list call with `view` (which adds the fields those
// settings name, as far as the user may see them) and the user's abilities on an entity.

export const linkedViewKeys = {
  entity: (id: number) => ['linked-view', 'entity', id] as const,
  abilities: (id: number) => ['linked-view', 'abilities', id] as const,
  // under the lists' key: whatever reloads the lists (a write, a realtime event) reloads these too
  list: (query: ViewListQuery) => [...dossierListKeys.all, 'linked-view', query] as const,
};

export type ViewSettings = Record<string, unknown>;

/** A data field or link id stored in an entity setting (a number or a numeric text), or null. */
export function settingId(settings: ViewSettings | undefined, key: string): number | null {
  const value = settings?.[key];
  const id = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : Number.NaN;
  return Number.isInteger(id) && id > 0 ? id : null;
}

export function useEntityDefinition(entityId: number | null) {
  return useQuery({
    queryKey: linkedViewKeys.entity(entityId ?? 0),
    queryFn: ({ signal }) => api.get<DefDossier>(`/defdossier/${entityId}`, undefined, signal),
    enabled: entityId !== null,
    staleTime: 60_000,
  });
}

export function useAbilitiesOf(entityId: number | null) {
  return useQuery({
    queryKey: linkedViewKeys.abilities(entityId ?? 0),
    queryFn: ({ signal }) =>
      api
        .get<{ abilities: EntityAbilities }>(`/defdossier/${entityId}/permissions`, undefined, signal)
        .then((answer) => answer.abilities),
    enabled: entityId !== null,
    staleTime: 60_000,
  });
}

export interface ViewListQuery {
  defDossier: number;
  embedded: number;
  linkId: number;
  view: 'timeline' | 'Gantt' | 'hourregistration';
  limit: number;
  page?: number;
  [filter: string]: string | number | undefined;
}

export const fetchViewList = (query: ViewListQuery, signal?: AbortSignal) =>
  api.get<DossierListBody>('/contentdossier', query, signal);

export function useViewList(query: ViewListQuery | null) {
  return useQuery({
    queryKey: linkedViewKeys.list(query ?? ({} as ViewListQuery)),
    queryFn: ({ signal }) => fetchViewList(query as ViewListQuery, signal),
    enabled: query !== null,
    staleTime: 0,
  });
}

/** The item of a list answer that carries this data field, if the user may see it. */
export function itemOfField(body: DossierListBody | undefined, fieldId: number | null): DisplayItem | null {
  if (!body || fieldId === null) return null;
  return body.results.items.find((item) => item.def_dossier_def_field?.id === fieldId) ?? null;
}

/** A dossier's value of a data field in a list answer (undefined when the field is not shown). */
export function valueOfField(body: DossierListBody | undefined, dossierId: number, fieldId: number | null) {
  const item = itemOfField(body, fieldId);
  return item ? body?.results.contents[String(dossierId)]?.[String(item.id)] : undefined;
}

/** A stored date value ('YYYY-MM-DD' or an ISO instant) as a Date, or null. */
export function dateOf(value: unknown): Date | null {
  if (typeof value !== 'string' || value === '') return null;
  const date = /^\d{4}-\d{2}-\d{2}$/.test(value) ? new Date(`${value}T00:00:00`) : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** A number value (amount, calc), or null. */
export function numberOf(value: unknown): number | null {
  const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : Number.NaN;
  return Number.isFinite(n) ? n : null;
}
