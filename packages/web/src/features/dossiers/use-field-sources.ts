import type { DisplayItem, ListOption } from '@dossierbase/core';
import { useCallback, useMemo } from 'react';
import type { DossierPage, FieldSources, UserOption } from '../../fields/types';
import { listDossiers } from './dossier-api';
import { mergeUsers } from './known-users';
import { openLinkFilter } from './link-filter';
import { openNewLinkedDossier } from './new-linked-dossier';
import { useEnvironmentUsers } from './use-environment-users';

// The data the field components need, in one place: link pickers page through the child entity's
// dossiers (the list call: 25 per page, 50 when searching on the summary, with the filter modal's
// parameters); list and tree fields get their options from the entity layout.

/** 1-based picker page -> the list call (0-based pages, summary search). */
export async function searchLinkedDossiers(
  defDossier: number,
  search: string,
  page: number,
  limit: number,
  filter: Readonly<Record<string, string>> = {},
): Promise<DossierPage> {
  const answer = await listDossiers({
    ...filter,
    defDossier,
    limit,
    page: Math.max(0, page - 1),
    summary: search.trim() || undefined,
  });
  return {
    items: answer.results.dossiers.map((d) => ({
      id: d.id,
      summary: d.summary,
      def_dossier_id: d.def_dossier_id,
      archived: d.archived,
    })),
    total: answer.pager.items,
  };
}

/** One stable search function per child entity (the picker refetches when the function changes). */
const searchers = new Map<number, NonNullable<FieldSources['searchDossiers']>>();
function searcherFor(defDossier: number) {
  let searcher = searchers.get(defDossier);
  if (!searcher) {
    searcher = (search, page, limit, filter) => searchLinkedDossiers(defDossier, search, page, limit, filter);
    searchers.set(defDossier, searcher);
  }
  return searcher;
}

/**
 * Sources for one display item. `pageUsers`: users the page knows by name; `shownUserIds`: ids its
 * user fields hold, named by the server when they are not among the members read at once.
 */
export function useFieldSources(
  options: Map<number, ListOption[]>,
  pageUsers: readonly UserOption[] = [],
  shownUserIds: readonly number[] = [],
) {
  const members = useEnvironmentUsers(shownUserIds);
  const users = useMemo(() => mergeUsers(members.users, pageUsers), [members.users, pageUsers]);
  const { loadUsers } = members;
  return useCallback(
    (item: DisplayItem): FieldSources => {
      const link = item.def_dossier_link;
      const field = item.def_dossier_def_field?.def_field;
      const sources: FieldSources = users.length > 0 ? { users, loadUsers } : { loadUsers };
      if (link) {
        sources.searchDossiers = searcherFor(link.child_def_dossier_id);
        // 'New' needs create on the child entity (the server sends the reader's abilities there)
        if (link.child_abilities?.canCreate)
          sources.createLinkedDossier = () => openNewLinkedDossier(link.child_def_dossier_id);
        sources.filterLinkedDossiers = (current) => openLinkFilter(link.child_def_dossier_id, current);
      }
      if (field && options.has(field.id)) sources.options = options.get(field.id);
      return sources;
    },
    [options, users, loadUsers],
  );
}
