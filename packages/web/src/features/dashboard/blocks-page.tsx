import type { Block } from '@dossierbase/core';
import { Anchor, Button, Center, Group, Loader, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { useLocale } from '../../app/locale-provider';
import { AnswerPager } from '../../app/pager';
import { roleName, useRoles } from '../admin/admin-api';
import { AdminOnly } from '../admin/admin-guard';
import { useEnvironment } from '../environments/environment-store';
import { blockTitle } from './block-card';
import { BlockEditorModal } from './block-editor-modal';
import { useBlock, useBlockList, useDashboardBlocks, useRefreshDashboard } from './dashboard-api';

// /blocks: every block of the environment for its admins, searchable, each opening /blocks/{id} with
// the block editor; /blocks/0 adds one.

export function BlocksPage() {
  return (
    <AdminOnly>
      <BlockList />
    </AdminOnly>
  );
}

function BlockList() {
  const { t } = useTranslation();
  const { locale } = useLocale();
  const environment = useEnvironment()?.id ?? 0;
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 300);
  const [page, setPage] = useState(0);
  const list = useBlockList(environment, debounced, page);
  const byId = new Map((list.data?.results ?? []).map((b) => [b.id, b]));
  const roles = useRoles();

  return (
    <Stack data-testid="blocks-page">
      <Group justify="space-between" align="flex-end">
        <Title order={1} size="h3">
          {t('dashboard.blocks.title')}
        </Title>
        <Button component={Link} to="/blocks/0" leftSection={<IconPlus size={16} />} data-testid="blocks-add">
          {t('dashboard.add_block')}
        </Button>
      </Group>
      <TextInput
        label={t('common.search')}
        value={search}
        onChange={(event) => {
          setSearch(event.currentTarget.value);
          setPage(0);
        }}
        w={300}
        data-testid="blocks-search"
      />
      {list.isPending ? (
        <Loader />
      ) : (list.data?.results ?? []).length === 0 ? (
        <Text c="dimmed" data-testid="blocks-empty">
          {t('dashboard.no_items')}
        </Text>
      ) : (
        <Table striped withTableBorder data-testid="blocks-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('dashboard.blocks.name')}</Table.Th>
              <Table.Th>{t('dashboard.editor.type')}</Table.Th>
              <Table.Th>{t('dashboard.editor.parent')}</Table.Th>
              <Table.Th>{t('dashboard.editor.roles')}</Table.Th>
              <Table.Th>{t('dashboard.blocks.on_dashboard')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {(list.data?.results ?? []).map((block: Block) => (
              <Table.Tr key={block.id} data-testid="blocks-row">
                <Table.Td>
                  <Anchor component={Link} to={`/blocks/${block.id}`}>
                    {blockTitle(block, locale, t)}
                  </Anchor>
                </Table.Td>
                <Table.Td>{t(`dashboard.types.${block.type}`)}</Table.Td>
                <Table.Td>
                  {block.parent
                    ? byId.get(block.parent.id)
                      ? blockTitle(byId.get(block.parent.id) as Block, locale, t)
                      : `#${block.parent.id}`
                    : ''}
                </Table.Td>
                <Table.Td>
                  {block.roles.length === 0
                    ? t('dashboard.blocks.everyone')
                    : block.roles
                        .map((id) => {
                          const role = roles.data?.find((r) => r.id === id);
                          return role ? roleName(role, locale) : `#${id}`;
                        })
                        .join(', ')}
                </Table.Td>
                <Table.Td>{block.dashboard ? t('dashboard.blocks.yes') : t('dashboard.blocks.no')}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <AnswerPager pager={list.data?.pager} page={page} onPage={setPage} />
    </Stack>
  );
}

export function BlockPage() {
  return (
    <AdminOnly>
      <BlockEdit />
    </AdminOnly>
  );
}

/** /blocks/{id}: the block editor over the list; closing it goes back to the list. */
function BlockEdit() {
  const id = Number(useParams().id) || 0;
  const navigate = useNavigate();
  const environment = useEnvironment()?.id ?? 0;
  const block = useBlock(id);
  const all = useDashboardBlocks(environment, false);
  const refresh = useRefreshDashboard();
  const close = () => void navigate('/blocks');
  if ((id > 0 && block.isPending) || all.isPending)
    return (
      <Center mih={200}>
        <Loader />
      </Center>
    );
  return (
    <>
      <BlockList />
      <BlockEditorModal
        key={id}
        block={id > 0 ? (block.data ?? null) : null}
        blocks={all.data?.results ?? []}
        onClose={close}
        onSaved={() => {
          void refresh();
          close();
        }}
        onDeleted={() => {
          void refresh();
          void navigate('/');
        }}
      />
    </>
  );
}
