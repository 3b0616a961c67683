import type { DefDossier } from '@dossierbase/core';
import { ActionIcon, Anchor, Badge, Button, Group, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { api, isApiError } from '../../api/client';
import { useLocale } from '../../app/locale-provider';
import { NotFoundPage } from '../../app/not-found-page';
import { entityName, useDataFields, useEntities, useEntity, useLinks } from './admin-api';
import { useAdminAction } from './admin-form';
import { AdminOnly } from './admin-guard';
import { DataFieldModal } from './data-field-modal';
import { fieldTypeLabel } from './labels';
import { LinkFieldModal } from './link-field-modal';

export function DatastructurePage() {
  return (
    <AdminOnly>
      <EntityList />
    </AdminOnly>
  );
}

function EntityList() {
  const { t } = useTranslation();
  const { locale } = useLocale();
  const { data: entities, isLoading } = useEntities();
  const sorted = [...(entities ?? [])].sort((a, b) => a.rank - b.rank || a.id - b.id);
  const saveRanks = useAdminAction(
    (order: DefDossier[]) =>
      api.patch('/defdossier/rank', { ranks: order.map((entity, rank) => ({ id: entity.id, rank })) }),
    true,
  );
  /** Swaps two neighbours and saves every rank (PATCH /defdossier/rank); the menu follows. */
  const move = (index: number, step: -1 | 1) => {
    const order = [...sorted];
    [order[index], order[index + step]] = [order[index + step], order[index]];
    saveRanks.mutate(order);
  };
  return (
    <Stack data-testid="datastructure-page">
      <Group justify="space-between">
        <Title order={1} size="h3">
          {t('admin.datastructure.title')}
        </Title>
        <Button
          component={Link}
          to="/defdossier/edit/0"
          leftSection={<IconPlus size={16} />}
          data-testid="datastructure-new-entity"
        >
          {t('admin.datastructure.new_entity')}
        </Button>
      </Group>
      {isLoading && <Loader />}
      <Table striped highlightOnHover data-testid="datastructure-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('admin.name')}</Table.Th>
            <Table.Th>{t('admin.type')}</Table.Th>
            <Table.Th>{t('admin.rank')}</Table.Th>
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {sorted.map((entity, index) => (
            <Table.Tr key={entity.id} data-testid={`datastructure-row-${entity.id}`}>
              <Table.Td>
                <Anchor component={Link} to={`/datastructure/${entity.id}`}>
                  {entityName(entity, locale)}
                </Anchor>
              </Table.Td>
              <Table.Td>
                <Badge variant="light">{t(`admin.entity_types.${entity.type}`)}</Badge>
              </Table.Td>
              <Table.Td>
                <Group gap={2} wrap="nowrap">
                  {entity.rank}
                  <ActionIcon
                    size="sm"
                    variant="subtle"
                    disabled={saveRanks.isPending || index === 0}
                    onClick={() => move(index, -1)}
                    aria-label={t('admin.move_up')}
                    data-testid={`datastructure-up-${entity.id}`}
                  >
                    <IconArrowUp size={14} />
                  </ActionIcon>
                  <ActionIcon
                    size="sm"
                    variant="subtle"
                    disabled={saveRanks.isPending || index === sorted.length - 1}
                    onClick={() => move(index, 1)}
                    aria-label={t('admin.move_down')}
                    data-testid={`datastructure-down-${entity.id}`}
                  >
                    <IconArrowDown size={14} />
                  </ActionIcon>
                </Group>
              </Table.Td>
              <Table.Td>
                <Group gap="xs" justify="flex-end">
                  <Button size="compact-xs" variant="light" component={Link} to={`/fieldeditor/${entity.id}`}>
                    {t('admin.designer.title')}
                  </Button>
                  <Button
                    size="compact-xs"
                    variant="default"
                    component={Link}
                    to={`/defdossier/edit/${entity.id}`}
                  >
                    {t('admin.edit')}
                  </Button>
                  <Button
                    size="compact-xs"
                    variant="default"
                    component={Link}
                    to={`/defdossier/conditions/${entity.id}`}
                  >
                    {t('admin.conditions.title')}
                  </Button>
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {entities && sorted.length === 0 && <Text c="dimmed">{t('menu.no_entities')}</Text>}
    </Stack>
  );
}

export function EntityStructurePage() {
  return (
    <AdminOnly>
      <EntityStructure />
    </AdminOnly>
  );
}

/** The entity's data fields and links; also the field designer's ?editData=1 view (ERD editor). */
export function EntityStructure() {
  const { t } = useTranslation();
  const { locale } = useLocale();
  const id = Number(useParams().id);
  const { data: entity, error: entityError } = useEntity(id);
  const { data: entities = [] } = useEntities();
  const { data: fields = [] } = useDataFields(id);
  const { data: links = [] } = useLinks(id);
  const [dataField, setDataField] = useState<number | null>(null);
  const [link, setLink] = useState<number | null>(null);
  if (isApiError(entityError, 404)) return <NotFoundPage />;
  return (
    <Stack data-testid="entity-structure-page">
      <Group justify="space-between">
        <Title order={1} size="h3">
          {entityName(entity, locale)}
        </Title>
        <Group gap="xs">
          <Button size="xs" variant="light" component={Link} to={`/fieldeditor/${id}`}>
            {t('admin.designer.title')}
          </Button>
          <Button size="xs" variant="default" component={Link} to="/datastructure">
            {t('common.back')}
          </Button>
        </Group>
      </Group>
      <Group justify="space-between">
        <Title order={5}>{t('admin.datastructure.data_fields')}</Title>
        <Button size="compact-xs" onClick={() => setDataField(0)} data-testid="structure-add-data-field">
          {t('admin.designer.add_data_field')}
        </Button>
      </Group>
      <Table striped data-testid="structure-fields">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('admin.name')}</Table.Th>
            <Table.Th>{t('admin.data_field.base_field')}</Table.Th>
            <Table.Th>{t('admin.type')}</Table.Th>
            <Table.Th>{t('admin.obligatory')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {fields.map((field) => (
            <Table.Tr key={field.id} onClick={() => setDataField(field.id)} style={{ cursor: 'pointer' }}>
              <Table.Td>{field.name}</Table.Td>
              <Table.Td>{field.def_field.name}</Table.Td>
              <Table.Td>{fieldTypeLabel(t, field.def_field.type)}</Table.Td>
              <Table.Td>{field.obligatory ? '✓' : ''}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Group justify="space-between">
        <Title order={5}>{t('admin.datastructure.links')}</Title>
        <Button size="compact-xs" onClick={() => setLink(0)} data-testid="structure-add-link">
          {t('admin.designer.add_link_field')}
        </Button>
      </Group>
      <Table striped data-testid="structure-links">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('admin.name')}</Table.Th>
            <Table.Th>{t('admin.entity')}</Table.Th>
            <Table.Th>{t('admin.link.type')}</Table.Th>
            <Table.Th>{t('admin.link.back_link')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {links.map((entry) => (
            <Table.Tr
              key={entry.id}
              onClick={() => setLink(entry.id)}
              style={{ cursor: 'pointer' }}
              data-testid={`structure-link-${entry.id}`}
            >
              <Table.Td>{entry.name}</Table.Td>
              <Table.Td>
                {entityName(
                  entities.find((e) => e.id === entry.child_def_dossier_id),
                  locale,
                )}
              </Table.Td>
              <Table.Td>{t(`admin.link.types.${entry.type_of_link}`)}</Table.Td>
              <Table.Td>{entry.back_link_id ?? ''}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <DataFieldModal
        opened={dataField !== null}
        onClose={() => setDataField(null)}
        defDossier={id}
        fieldId={dataField ?? 0}
      />
      <LinkFieldModal
        opened={link !== null}
        onClose={() => setLink(null)}
        defDossier={id}
        linkId={link ?? 0}
      />
    </Stack>
  );
}
