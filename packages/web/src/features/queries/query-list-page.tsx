import type { DossierQuery } from '@dossierbase/core';
import {
  ActionIcon,
  Anchor,
  Breadcrumbs,
  Button,
  Center,
  Group,
  Loader,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconPlus, IconSearch, IconTrash } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { isApiError } from '../../api/client';
import { actionErrorMessage, notifySuccess } from '../../api/errors';
import { useLocale } from '../../app/locale-provider';
import { AnswerPager } from '../../app/pager';
import { entityName, refreshEnvironment, useEntities } from '../admin/admin-api';
import { AdminOnly } from '../admin/admin-guard';
import { AdminModal } from '../admin/admin-modal';
import { deleteQuery, QUERY_IN_USE, queryKeys, queryName, useQueryPage } from './queries-api';

const PAGE_SIZE = 25;

export function QueryListPage() {
  return (
    <AdminOnly>
      <QueryList />
    </AdminOnly>
  );
}

/** /querybuilder: the environment's saved queries, searched by name and paged by the server. */
function QueryList() {
  const { t } = useTranslation();
  const { locale } = useLocale();
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(0);
  const [term] = useDebouncedValue(search.trim(), 300);
  const [deleting, setDeleting] = useState<DossierQuery | null>(null);
  const list = useQueryPage({ search: term || undefined, page, limit: PAGE_SIZE });
  const { data: entities = [] } = useEntities();
  const queries = list.data?.results ?? [];

  return (
    <Stack data-testid="queries-page">
      <Breadcrumbs>
        <Anchor component={Link} to="/">
          {t('menu.dashboard')}
        </Anchor>
        <Text>{t('queries.title')}</Text>
      </Breadcrumbs>
      <Group justify="space-between">
        <Title order={1} size="h3">
          {t('queries.title')}
        </Title>
        <Button
          component={Link}
          to="/querybuilder/0"
          leftSection={<IconPlus size={16} />}
          data-testid="queries-new"
        >
          {t('queries.new')}
        </Button>
      </Group>
      <TextInput
        aria-label={t('queries.search')}
        placeholder={t('queries.search')}
        leftSection={<IconSearch size={16} />}
        value={search}
        onChange={(event) => {
          setSearch(event.currentTarget.value);
          setPage(0);
        }}
        w={{ base: '100%', sm: 320 }}
        data-testid="queries-search"
      />
      {list.isLoading && <Loader />}
      <Table striped highlightOnHover data-testid="queries-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('admin.name')}</Table.Th>
            <Table.Th>{t('queries.entity')}</Table.Th>
            <Table.Th>{t('queries.modified_by')}</Table.Th>
            <Table.Th>
              <VisuallyHidden>{t('queries.actions')}</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {queries.map((query) => (
            <Table.Tr key={query.id} data-testid={`queries-row-${query.id}`}>
              <Table.Td>
                <Anchor component={Link} to={`/querybuilder/${query.id}`} data-testid="queries-open">
                  {queryName(query, locale)}
                </Anchor>
              </Table.Td>
              <Table.Td>
                {entityName(
                  entities.find((e) => e.id === query.def_dossier.id),
                  locale,
                )}
              </Table.Td>
              <Table.Td>
                <Text size="sm">{query.modified_by?.username ?? ''}</Text>
              </Table.Td>
              <Table.Td>
                <Tooltip label={t('admin.delete')}>
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    onClick={() => setDeleting(query)}
                    aria-label={`${t('admin.delete')} ${queryName(query, locale)}`}
                    data-testid="queries-delete"
                  >
                    <IconTrash size={16} />
                  </ActionIcon>
                </Tooltip>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {list.data && queries.length === 0 && (
        <Text c="dimmed" data-testid="queries-empty">
          {term ? t('queries.none_found') : t('queries.none')}
        </Text>
      )}
      <Center>
        <AnswerPager pager={list.data?.pager} page={page} onPage={setPage} data-testid="queries-pagination" />
      </Center>
      <DeleteQueryModal query={deleting} onClose={() => setDeleting(null)} />
    </Stack>
  );
}

/** The server's refusal of a delete in the reader's language, naming where the query is used. */
export function deleteRefusal(error: unknown, t: TFunction): string {
  const fields = isApiError(error, 400) ? error.fieldErrors : null;
  if (fields?.id === QUERY_IN_USE) return t('queries.in_use', { uses: fields.used_by ?? '' });
  return actionErrorMessage(error, t);
}

function DeleteQueryModal({ query, onClose }: { query: DossierQuery | null; onClose: () => void }) {
  const { t } = useTranslation();
  const { locale } = useLocale();
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: (id: number) => deleteQuery(id),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: queryKeys.all });
      await refreshEnvironment();
      notifySuccess(t('queries.deleted'));
      onClose();
    },
  });
  const close = () => {
    remove.reset();
    onClose();
  };
  return (
    <AdminModal
      opened={query !== null}
      onClose={close}
      title={t('queries.delete_title')}
      testId="query-delete-modal"
      onSubmit={() => query && remove.mutate(query.id)}
      pending={remove.isPending}
      error={remove.error ? deleteRefusal(remove.error, t) : undefined}
      saveLabel={t('admin.delete')}
      saveColor="red"
      saveTestId="query-delete-confirm"
    >
      <Text>{t('queries.delete_confirm', { name: query ? queryName(query, locale) : '' })}</Text>
    </AdminModal>
  );
}
