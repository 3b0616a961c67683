import type { DisplayItem, LinkedDossier, LinkSettings } from '@dossierbase/core';
import type { DossierValues } from '../dossier-api';
import { LINKED_VIEW_NAMES, type LinkedViewName } from './linked-view';

// The embedded list's decisions, without React: which views it offers and starts on, the order of
// the row entry items, the link's sort as list parameters.

/** The views a link's settings allow; none listed: the list alone. */
export function allowedViews(settings: Pick<LinkSettings, 'views'>): LinkedViewName[] {
  return settings.views.length ? [...settings.views] : ['list'];
}

/** The views to offer: allowed by the link and built (in the contract's order). */
export function offeredViews(allowed: readonly string[], built: (name: LinkedViewName) => boolean) {
  return LINKED_VIEW_NAMES.filter((name) => allowed.includes(name) && built(name));
}

/** The start view: the one configured view, else the list (or the first offered). */
export function startView(offered: readonly LinkedViewName[]): LinkedViewName | null {
  if (offered.length === 1) return offered[0];
  return offered.includes('list') ? 'list' : (offered[0] ?? null);
}

/** The row_input items in the order the row shows them: rank, then col. */
export function rowInputItems(items: readonly DisplayItem[]): DisplayItem[] {
  return items
    .filter((item) => item.view === 'row_input')
    .sort((a, b) => a.rank - b.rank || a.col - b.col || a.id - b.id);
}

/** The link's sort settings (data field ids or dossier data names) as list sort parameters. */
export function linkSortParams(
  sorts: readonly { dddfId: number | string; sort: 'ASC' | 'DESC' }[],
  items: readonly DisplayItem[],
): [string, 'asc' | 'desc'][] {
  return sorts.flatMap(({ dddfId, sort }): [string, 'asc' | 'desc'][] => {
    const order = sort === 'DESC' ? 'desc' : 'asc';
    if (typeof dddfId === 'string' && !/^\d+$/.test(dddfId)) return [[dddfId, order]];
    const item = items.find((i) => i.def_dossier_def_field?.id === Number(dddfId));
    return item ? [[String(item.id), order]] : [];
  });
}

/**
 * limit_embedded_link: the link of the child entity through which a child listed in the embedded list
 * holds the parent too, and the parent it is pre-filled with in the list's Add and row entry forms.
 */
export interface LimitLinkPrefill {
  linkId: number;
  parent: LinkedDossier;
}

/** The values of the form items of the limit link: the parent, as if the user had chosen it. */
export function limitLinkValues(
  items: readonly DisplayItem[],
  prefill: LimitLinkPrefill | null | undefined,
): DossierValues {
  const values: DossierValues = {};
  if (!prefill) return values;
  for (const item of items)
    if (item.def_dossier_link?.id === prefill.linkId) values[String(item.id)] = [prefill.parent];
  return values;
}
