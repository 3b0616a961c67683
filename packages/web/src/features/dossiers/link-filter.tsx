import { Loader, Modal } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { LinkFilter } from '../../fields/types';
import { useTokenData } from '../auth/session';
import { isEnvironmentAdmin, useEnvironment } from '../environments/environment-store';
import { useItemOptions, useSearchItems } from './list/list-api';
import { searchQueryParams } from './list/list-params';
import { type SearchFilters, SearchPanel } from './list/search-panel';
import { createModalRequest } from './modal-request';
import { useEntityNames } from './use-entity-layout';
import { useEnvironmentUsers } from './use-environment-users';

// The link picker's filter modal (spec doc 2, "filter modal for link options"): the child entity's
// search and advanced-search form, as on its list page. Applying it narrows the picker's choices to
// the dossiers the list call finds with those filters; Reset lifts the filter.

const NO_FILTERS: SearchFilters = { search: {}, archived: 'none' };

const linkFilter = createModalRequest<
  { defDossier: number; current: LinkFilter | null },
  LinkFilter | null | undefined
>(undefined);

/** Opens the filter modal of `defDossier` as `current` left it; see FieldSources.filterLinkedDossiers. */
export const openLinkFilter = (defDossier: number, current: LinkFilter | null) =>
  linkFilter.open({ defDossier, current });

export function LinkFilterHost() {
  const request = linkFilter.useCurrent();
  return request ? (
    <LinkFilterModal
      key={request.defDossier}
      defDossier={request.defDossier}
      current={request.current}
      onDone={linkFilter.finish}
    />
  ) : null;
}

function LinkFilterModal(props: {
  defDossier: number;
  current: LinkFilter | null;
  onDone: (filter: LinkFilter | null | undefined) => void;
}) {
  const { t } = useTranslation();
  const token = useTokenData();
  const admin = isEnvironmentAdmin(useEnvironment());
  const names = useEntityNames(props.defDossier);
  const search = useSearchItems(props.defDossier);
  const optionsOf = useItemOptions(search.items, admin);
  const members = useEnvironmentUsers();
  const applied = (props.current?.form as SearchFilters | undefined) ?? NO_FILTERS;

  const apply = (filters: SearchFilters) => {
    const params: Record<string, string> = searchQueryParams(search.items, filters.search, token?.user_id);
    if (filters.archived !== 'none') params.archived = filters.archived;
    props.onDone(Object.keys(params).length > 0 ? { params, form: filters } : null);
  };

  return (
    <Modal
      opened
      onClose={() => props.onDone(undefined)}
      size="xl"
      title={t('fields.link.filter_title', { name: names.name })}
      data-testid="link-filter-modal"
    >
      {search.isLoading ? (
        <Loader size="sm" />
      ) : (
        <SearchPanel
          items={search.items}
          applied={applied}
          optionsOf={optionsOf}
          users={members.users}
          loadUsers={members.loadUsers}
          currentUserId={token?.user_id}
          onApply={apply}
        />
      )}
    </Modal>
  );
}
