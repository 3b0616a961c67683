import type { Pager as PagerAnswer, RoleDetail } from '@dossierbase/core';
import { Anchor, Button, Center, Group, Loader, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconPlus, IconSearch } from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api } from '../../api/client';
import { useLocale } from '../../app/locale-provider';
import { AnswerPager } from '../../app/pager';
import { adminKeys, roleName, useEnvironmentId } from './admin-api';
import { AdminOnly } from './admin-guard';

const PAGE_SIZE = 25;

export function RolesPage() {
  return (
    <AdminOnly>
      <RoleList />
    </AdminOnly>
  );
}

/** The environment's roles by name, searched and paged by the server; each opens its editor. */
function RoleList() {
  const { t } = useTranslation();
  const { locale } = useLocale();
  const environment = useEnvironmentId();
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(0);
  const [term] = useDebouncedValue(search.trim(), 300);
  const query = { environment, search: term || undefined, page, limit: PAGE_SIZE };
  const list = useQuery({
    queryKey: adminKeys.list('role', query),
    queryFn: ({ signal }) => api.get<{ results: RoleDetail[]; pager: PagerAnswer }>('/role', query, signal),
    enabled: environment > 0,
    placeholderData: keepPreviousData,
  });
  const roles = list.data?.results ?? [];

  return (
    <Stack data-testid="roles-page">
      <Group justify="space-between">
        <Title order={1} size="h3">
          {t('menu.admin.roles')}
        </Title>
        <Group gap="xs">
          <Button variant="default" component={Link} to="/permissions">
            {t('menu.admin.permissions')}
          </Button>
          <Button component={Link} to="/role/0" leftSection={<IconPlus size={16} />} data-testid="roles-new">
            {t('admin.roles.new')}
          </Button>
        </Group>
      </Group>
      <TextInput
        aria-label={t('admin.roles.search')}
        placeholder={t('admin.roles.search')}
        leftSection={<IconSearch size={16} />}
        value={search}
        onChange={(event) => {
          setSearch(event.currentTarget.value);
          setPage(0);
        }}
        w={{ base: '100%', sm: 320 }}
        data-testid="roles-search"
      />
      {list.isLoading && <Loader />}
      <Table striped highlightOnHover data-testid="roles-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('admin.name')}</Table.Th>
            <Table.Th>{t('admin.roles.translations')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {roles.map((role) => (
            <Table.Tr key={role.id} data-testid={`roles-row-${role.id}`}>
              <Table.Td>
                <Anchor component={Link} to={`/role/${role.id}`} data-testid="roles-open">
                  {roleName(role, locale)}
                </Anchor>
              </Table.Td>
              <Table.Td>
                <Text size="sm">
                  {role.translations.map((tr) => `${tr.culture}: ${tr.name}`).join(' · ')}
                </Text>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {list.data && roles.length === 0 && (
        <Text c="dimmed" data-testid="roles-empty">
          {term ? t('admin.roles.none_found') : t('admin.roles.none')}
        </Text>
      )}
      <Center>
        <AnswerPager pager={list.data?.pager} page={page} onPage={setPage} data-testid="roles-pagination" />
      </Center>
    </Stack>
  );
}
