import {
  FAVOURITE_SUMMARY_LENGTH,
  FAVOURITES_PAGE_SIZE,
  FAVOURITES_SEARCH_DEBOUNCE_MS,
  type Favourite,
} from '@dossierbase/core';
import { ActionIcon, Anchor, Drawer, Group, Loader, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch, IconTrash } from '@tabler/icons-react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { notifyError, notifySuccess } from '../../api/errors';
import { dossierKeys, fetchFavourites, setFavourite } from '../../features/dossiers/dossier-api';
import { useEnvironment } from '../../features/environments/environment-store';
import { pickCulture } from '../../fields/helpers';
import { formatDate, truncate } from '../format';
import { useLocale } from '../locale-provider';
import { AnswerPager } from '../pager';

// The favourites side panel (spec doc 1 "Favourites side panel"): opened by the top bar's star; a
// search, a page of 10 favourites, each linking to its dossier with the entity's plural name, the
// summary cut at 50 characters, the date it was marked and a remove button.

export function FavouritesPanel({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Drawer
      opened={opened}
      onClose={onClose}
      position="right"
      title={t('favourites.title')}
      closeButtonProps={{ 'aria-label': t('common.close') }}
      data-testid="favourites-panel"
    >
      {opened && <FavouritesList onNavigate={onClose} />}
    </Drawer>
  );
}

function FavouritesList({ onNavigate }: { onNavigate: () => void }) {
  const { t } = useTranslation();
  const environment = useEnvironment();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), FAVOURITES_SEARCH_DEBOUNCE_MS);
  const [page, setPage] = useState(0);
  const environmentId = environment?.id ?? 0;
  const favourites = useQuery({
    queryKey: dossierKeys.favourites({ environment: environmentId, page, search: debounced }),
    queryFn: ({ signal }) =>
      fetchFavourites(
        { environment: environmentId, page, limit: FAVOURITES_PAGE_SIZE, search: debounced },
        signal,
      ),
    enabled: environmentId > 0,
    placeholderData: keepPreviousData,
  });
  const results = favourites.data?.results ?? [];
  // a removal that empties the last page goes back one page
  const lastPage = Math.max(0, (favourites.data?.pager.pages ?? 1) - 1);
  if (favourites.data && page > lastPage) setPage(lastPage);

  return (
    <Stack gap="sm">
      <TextInput
        label={t('favourites.search')}
        leftSection={<IconSearch size={16} />}
        value={search}
        onChange={(event) => {
          setSearch(event.currentTarget.value);
          setPage(0);
        }}
        data-testid="favourites-search"
      />
      {favourites.isPending ? (
        <Loader size="sm" />
      ) : favourites.isError ? (
        <Text c="red" role="alert">
          {t('common.something_went_wrong')}
        </Text>
      ) : results.length === 0 ? (
        <Text c="dimmed" data-testid="favourites-empty">
          {t('favourites.none')}
        </Text>
      ) : (
        <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {results.map((favourite) => (
            <FavouriteItem key={favourite.id} favourite={favourite} onNavigate={onNavigate} />
          ))}
        </Stack>
      )}
      <AnswerPager pager={favourites.data?.pager} page={page} onPage={setPage} size="sm" />
    </Stack>
  );
}

function FavouriteItem({ favourite, onNavigate }: { favourite: Favourite; onNavigate: () => void }) {
  const { t } = useTranslation();
  const { locale } = useLocale();
  const queryClient = useQueryClient();
  const entity = useEnvironment()?.defdossiers?.find((e) => e.id === favourite.def_dossier_id);
  const entityName = (entity && pickCulture(entity.translations, locale ?? 'nl_NL')?.name_plural) || '';
  const summary = favourite.summary || t('dossier.no_summary');
  const remove = useMutation({
    mutationFn: () => setFavourite(favourite.content_dossier_id, false),
    onSuccess: () => {
      notifySuccess(t('dossier_errors.favorite_remove'));
      void queryClient.invalidateQueries({ queryKey: dossierKeys.all });
    },
    onError: (error) => notifyError(error, t),
  });
  return (
    <Group component="li" justify="space-between" wrap="nowrap" gap="xs" data-testid="favourite-item">
      <Anchor
        component={Link}
        to={`/contentdossier/${favourite.content_dossier_id}`}
        onClick={onNavigate}
        underline="never"
        style={{ minWidth: 0, flex: 1 }}
        data-testid="favourite-link"
      >
        <Text size="xs" c="dimmed" truncate>
          {entityName}
        </Text>
        <Text size="sm" fw={500} title={summary}>
          {truncate(summary, FAVOURITE_SUMMARY_LENGTH)}
        </Text>
        <Text size="xs" c="dimmed">
          {formatDate(favourite.created_at)}
        </Text>
      </Anchor>
      <Tooltip label={t('favourites.remove')}>
        <ActionIcon
          variant="subtle"
          color="red"
          aria-label={`${t('favourites.remove')}: ${truncate(summary, FAVOURITE_SUMMARY_LENGTH)}`}
          loading={remove.isPending}
          onClick={() => remove.mutate()}
          data-testid="favourite-remove"
        >
          <IconTrash size={16} />
        </ActionIcon>
      </Tooltip>
    </Group>
  );
}
