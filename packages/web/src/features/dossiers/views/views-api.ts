import {
  type CalendarAnswer,
  type DefDossierLink,
  type DossierListBody,
  KANBAN_PAGE_SIZE,
  type KanbanBoardAnswer,
  type LinkSettings,
  parseFieldSettings,
} from '@dossierbase/core';
import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { api, apiRequest } from '../../../api/client';
import { dossierKeys, fetchDossier } from '../dossier-api';
import { dossierListKeys } from '../list/list-api';
import type { LinkedViewProps } from './linked-view';

// The calls of the embedded list's views. Every key starts with dossierListKeys.all, so whatever
// invalidates the lists (a write here, a realtime event) reloads the views too.

export const viewKeys = {
  embedded: (entityId: number, parentId: number, linkId: number, query: string) =>
    [...dossierListKeys.all, entityId, 'embedded', parentId, linkId, query] as const,
  kanbanBoard: (entityId: number, query: string) =>
    [...dossierListKeys.all, entityId, 'kanban-board', query] as const,
  kanbanColumn: (entityId: number, query: string, option: string) =>
    [...dossierListKeys.all, entityId, 'kanban', query, option] as const,
  calendar: (entityId: number, query: string) =>
    [...dossierListKeys.all, entityId, 'calendar', query] as const,
};

/** The embedded-list parameters of the list call (the list of the parent's linked dossiers). */
export const embeddedParams = (props: LinkedViewProps) => ({
  defDossier: String(props.entityId),
  environment: String(props.environmentId),
  embedded: String(props.parentDossierId),
  linkId: String(props.linkId),
});

export interface LinkOfParent {
  link: DefDossierLink;
  settings: LinkSettings;
}

/**
 * The link as the parent dossier's items carry it (members may not read /defdossierlink): the
 * dossier's overview is the detail page's own query, so it is read from the cache.
 */
export function useLinkOfParent(parentDossierId: number, linkId: number) {
  return useQuery({
    queryKey: dossierKeys.detail(parentDossierId, null),
    queryFn: ({ signal }) => fetchDossier(parentDossierId, null, signal),
    select: (detail): LinkOfParent | null => {
      const link = detail.items.find((item) => item.def_dossier_link?.id === linkId)?.def_dossier_link;
      return link ? { link, settings: parseFieldSettings('link', link.settings) } : null;
    },
  });
}

/** One page of the embedded list. */
export function useEmbeddedList(props: LinkedViewProps, query: string) {
  return useQuery({
    queryKey: viewKeys.embedded(props.entityId, props.parentDossierId, props.linkId, query),
    queryFn: ({ signal }) => api.get<DossierListBody>(`/contentdossier?${query}`, undefined, signal),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

/**
 * The kanban board: its columns and the first page of each (50 cards and the column's total), for
 * the search typed; while a new search is read, the board keeps showing the last one.
 */
export function useKanbanBoard(props: LinkedViewProps, search: string) {
  const params = { ...embeddedParams(props), limit: String(KANBAN_PAGE_SIZE), ...(search ? { search } : {}) };
  return useQuery({
    queryKey: viewKeys.kanbanBoard(props.entityId, new URLSearchParams(params).toString()),
    queryFn: ({ signal }) => api.get<KanbanBoardAnswer>('/contentdossier/kanban/board', params, signal),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

/**
 * A kanban column's pages after the first (which the board carries): 50 cards a page, read once the
 * column is scrolled to its end (`enabled`), the next one each time again.
 */
export function useKanbanColumnMore(
  props: LinkedViewProps,
  option: string,
  search: string,
  enabled: boolean,
) {
  const params = { ...embeddedParams(props), option, search, limit: String(KANBAN_PAGE_SIZE) };
  const query = new URLSearchParams(params).toString();
  return useInfiniteQuery({
    queryKey: viewKeys.kanbanColumn(props.entityId, query, option),
    queryFn: ({ pageParam, signal }) =>
      api.get<DossierListBody>('/contentdossier/kanban', { ...params, page: String(pageParam) }, signal),
    initialPageParam: 1,
    getNextPageParam: (last) =>
      last.pager.current + 1 < last.pager.pages ? last.pager.current + 1 : undefined,
    enabled,
    staleTime: 0,
  });
}

/** Sets a card's list value (the kanban move): POST /contentlist/{dossier}/{item}/set. */
export const setListValue = (dossierId: number, itemId: number, optionIds: number[]) =>
  api.post<{ result: boolean }>(`/contentlist/${dossierId}/${itemId}/set`, { values: optionIds });

export function useCalendarRange(props: LinkedViewProps, start: string, end: string) {
  const params = { ...embeddedParams(props), start, end };
  return useQuery({
    queryKey: viewKeys.calendar(props.entityId, new URLSearchParams(params).toString()),
    queryFn: ({ signal }) => api.get<CalendarAnswer>('/contentdossier/calendar', params, signal),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

/** A dragged or resized event's new start and end (the server writes calendar_edit_start/_end). */
export const moveEvent = (dossierId: number, start: string, end: string | null) =>
  apiRequest<{ id: number }>(`/contentdossier/${dossierId}/calendar`, {
    method: 'PATCH',
    body: { start, end },
  });
