import type { DisplayItem, ListOption } from '@dossierbase/core';
import { useCallback, useMemo } from 'react';
import { itemSettings } from '../../fields/helpers';
import type { DossierPage, FieldSources, UserOption } from '../../fields/types';
import { type StoredEnvironment, useEnvironment } from '../environments/environment-store';
import { listDossiers } from './dossier-api';
import { mergeUsers } from './known-users';
import { openLinkFilter } from './link-filter';
import { openNewLinkedDossier } from './new-linked-dossier';
import { useEnvironmentUsers } from './use-environment-users';

// The data the field components need, in one place: link pickers page through the child entity's
// dossiers (the list call: 25 per page, 50 when searching on the summary, with the filter modal's
// parameters); list and tree fields get their options from the entity layout.

/** 1-based picker page -> the list call (0-based pages, summary search, the restricting query). */
export async function searchLinkedDossiers(
  defDossier: number,
  search: string,
  page: number,
  limit: number,
  filter: Readonly<Record<string, string>> = {},
  dossierQuery: number | null = null,
): Promise<DossierPage> {
  const answer = await listDossiers({
    ...filter,
    ...(dossierQuery ? { dossierQuery } : {}),
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

/**
 * One stable search function per child entity and restricting query (the picker refetches when the
 * function changes).
 */
const searchers = new Map<string, NonNullable<FieldSources['searchDossiers']>>();
function searcherFor(defDossier: number, dossierQuery: number | null) {
  const key = `${defDossier}:${dossierQuery ?? ''}`;
  let searcher = searchers.get(key);
  if (!searcher) {
    searcher = (search, page, limit, filter) =>
      searchLinkedDossiers(defDossier, search, page, limit, filter, dossierQuery);
    searchers.set(key, searcher);
  }
  return searcher;
}

/**
 * The saved query a link's picker offers its choices from (spec document 3 section 3):
 * default_val_dos_query (an id), or limit_output_to_mis_item (a query uuid, among the child entity's
 * queries of the environment). The server refuses a dossier outside it on save.
 */
function restrictingQuery(item: DisplayItem, environment: StoredEnvironment | null): number | null {
  const settings = itemSettings(item);
  if (typeof settings.default_val_dos_query === 'number') return settings.default_val_dos_query;
  const uuid = settings.limit_output_to_mis_item;
  if (typeof uuid !== 'string' || uuid === '') return null;
  const child = environment?.defdossiers.find((dd) => dd.id === item.def_dossier_link?.child_def_dossier_id);
  return child?.dossierqueries.find((q) => q.uuid === uuid)?.id ?? null;
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
  const environment = useEnvironment();
  const users = useMemo(() => mergeUsers(members.users, pageUsers), [members.users, pageUsers]);
  const { loadUsers } = members;
  return useCallback(
    (item: DisplayItem): FieldSources => {
      const link = item.def_dossier_link;
      const field = item.def_dossier_def_field?.def_field;
      const sources: FieldSources = users.length > 0 ? { users, loadUsers } : { loadUsers };
      if (link) {
        sources.searchDossiers = searcherFor(link.child_def_dossier_id, restrictingQuery(item, environment));
        // 'New' needs create on the child entity (the server sends the reader's abilities there)
        if (link.child_abilities?.canCreate)
          sources.createLinkedDossier = () => openNewLinkedDossier(link.child_def_dossier_id);
        sources.filterLinkedDossiers = (current) => openLinkFilter(link.child_def_dossier_id, current);
      }
      if (field && options.has(field.id)) sources.options = options.get(field.id);
      return sources;
    },
    [options, users, loadUsers, environment],
  );
}
