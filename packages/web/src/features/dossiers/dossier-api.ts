import type {
  DossierDetail,
  DossierListBody,
  EntityPermissionsAnswer,
  FavouritePage,
  QuickSearchHit,
} from '@dossierbase/core';
import { api, apiRequest } from '../../api/client';

// The contentdossier calls the detail, create and quick screens make (spec doc 2 section 7).

export const dossierKeys = {
  all: ['dossier'] as const,
  detail: (id: number, position: number | null) => ['dossier', 'detail', id, position] as const,
  /** a dossier read in one view (the side panel of an embedded list, link setting passing_sidebar) */
  inView: (id: number, view: string) => ['dossier', 'in-view', id, view] as const,
  abilities: (defDossier: number) => ['dossier', 'abilities', defDossier] as const,
  tabs: (defDossier: number, dossier: number) => ['dossier', 'tabs', defDossier, dossier] as const,
  layout: (defDossier: number) => ['dossier', 'layout', defDossier] as const,
  /** the favourites side panel's pages: under `all`, so a change of a dossier reads them again */
  favourites: (params: { environment: number; page: number; search: string }) =>
    ['dossier', 'favourites', params] as const,
  quickSearch: (environment: number, search: string) =>
    ['dossier', 'quick-search', environment, search] as const,
};

/** Values keyed by display item id, as the create and update calls take them. */
export type DossierValues = Record<string, unknown>;

export const fetchDossier = (id: number, displayPosition: number | null, signal?: AbortSignal) =>
  api.get<DossierDetail>(`/contentdossier/${id}`, { displayPosition }, signal);

/** A dossier with the items of one view (a standard view or a custom view of its entity). */
export const fetchDossierInView = (id: number, view: string, signal?: AbortSignal) =>
  api.get<DossierDetail>(`/contentdossier/${id}`, { view }, signal);

/** Where a new dossier is made: inside an embedded list (linked to its parent), from its row entry form. */
export interface CreateContext {
  embedded?: { parentId: number; linkId: number };
  /** the row entry form: the server takes the row_input view's items */
  customView?: 'row_input';
}

export const createDossier = (
  body: { defDossier: number; values: DossierValues; ignore_existing: boolean },
  context: CreateContext = {},
) =>
  api.post<{ id: number }>(
    context.customView ? `/contentdossier?customView=${context.customView}` : '/contentdossier',
    context.embedded
      ? { ...body, embedded: context.embedded.parentId, linkId: context.embedded.linkId }
      : body,
  );

export const updateDossier = (
  id: number,
  displayPosition: number | null,
  body: { values: DossierValues; ignore_existing: boolean },
) =>
  apiRequest<{ id: number }>(`/contentdossier/${id}`, {
    method: 'PUT',
    body,
    query: { displayPosition },
  });

export const setFavourite = (id: number, on: boolean) =>
  on
    ? api.post<unknown>(`/contentdossier/${id}/favorite`)
    : api.delete<unknown>(`/contentdossier/${id}/favorite`);

/** A page of the user's favourites in the environment, of the dossiers they may still see. */
export const fetchFavourites = (
  query: { environment: number; page: number; limit: number; search: string },
  signal?: AbortSignal,
) => api.get<FavouritePage>('/contentdossier/favorites', query, signal);

/** Quick search over the summaries of every entity the user may show (the quick_search credential). */
export const quickSearch = (
  query: { environment: number; search: string; limit: number },
  signal?: AbortSignal,
) => api.get<QuickSearchHit[]>('/contentdossier/search', query, signal);

/** Switches the subscription; the answer's result is the state the server keeps. */
export const setSubscription = (id: number, on: boolean) =>
  api.post<{ result: boolean }>(`/contentdossier/${id}/subscription/${on ? 1 : 0}`);

export const setArchived = (id: number, on: boolean) =>
  api.post<unknown>(`/contentdossier/${id}/${on ? 'archive' : 'dearchive'}`);

export const deleteDossier = (id: number) => api.delete<unknown>(`/contentdossier/${id}`);

/** What the signed-in user may do with the dossiers of the entity (the server's policy). */
export const fetchAbilities = (defDossier: number, signal?: AbortSignal) =>
  api
    .get<EntityPermissionsAnswer>(`/defdossier/${defDossier}/permissions`, undefined, signal)
    .then((answer) => answer.abilities);

/** Edit permission with custom credentials (spec: a server check per dossier). */
export const isEditAllowed = (defDossier: number, dossier: number, signal?: AbortSignal) =>
  api
    .get<{ allowed: boolean }>(
      '/contentdossier/is-credential-allowed',
      { defDossier, credential: 'edit', dossier },
      signal,
    )
    .then((answer) => answer.allowed);

/** tabs_allowed per dossier id (POST /displayposition/credentials). */
export const fetchTabsAllowed = (defDossier: number, ids: number[]) =>
  api.post<{ id: number; tabs_allowed: boolean }[]>('/displayposition/credentials', { defDossier, ids });

/** One page of dossiers of an entity for a link picker: the list call, with a summary search and filters. */
export const listDossiers = (
  query: { defDossier: number; limit: number; page: number; summary?: string } & Readonly<
    Record<string, string | number | undefined>
  >,
  signal?: AbortSignal,
) => api.get<DossierListBody>('/contentdossier', query, signal);
