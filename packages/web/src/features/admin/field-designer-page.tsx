import type { DefDossierDefField } from '@dossierbase/core';
import { Alert, Badge, Button, Group, Loader, Stack, Tabs, Text, Title } from '@mantine/core';
import { IconLink, IconPlus, IconTable, IconTextPlus } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams, useSearchParams } from 'react-router';
import { isApiError } from '../../api/client';
import { useLocale } from '../../app/locale-provider';
import { NotFoundPage } from '../../app/not-found-page';
import { entityName, pickTranslation, useDisplayItems, useEntity, usePositions } from './admin-api';
import { AdminOnly } from './admin-guard';
import { AutoDisplayModal } from './auto-display-modal';
import { BaseFieldModal } from './base-field-modal';
import { DataFieldModal } from './data-field-modal';
import { EntityStructure } from './datastructure-pages';
import { CustomViewsModal } from './designer/custom-views-modal';
import type { Editor } from './designer/editor';
import { PositionGrid } from './designer/position-grid';
import { PositionModal } from './designer/position-modal';
import { PositionToolbar } from './designer/position-toolbar';
import { DisplayItemModal } from './display-item-modal';
import { DESIGNER_VIEWS } from './grid';
import { LinkFieldModal } from './link-field-modal';

const POSITION_ORDER = ['main_content', 'tab', 'hide', 'meta', 'footer'];

export function FieldDesignerPage() {
  const [params] = useSearchParams();
  return <AdminOnly>{params.get('editData') === '1' ? <EntityStructure /> : <FieldDesigner />}</AdminOnly>;
}

function FieldDesigner() {
  const { t } = useTranslation();
  const { locale } = useLocale();
  const id = Number(useParams().id);
  const { data: entity, error: entityError } = useEntity(id);
  const { data: positions, isLoading } = usePositions(id);
  const { data: items = [] } = useDisplayItems(id);
  const [tab, setTab] = useState<string | null>(null);
  const [editor, setEditor] = useState<Editor>(null);
  const [created, setCreated] = useState<DefDossierDefField | null>(null);

  const sorted = [...(positions ?? [])].sort(
    (a, b) =>
      POSITION_ORDER.indexOf(a.type) - POSITION_ORDER.indexOf(b.type) || a.rank - b.rank || a.id - b.id,
  );
  useEffect(() => {
    if (sorted.length && !sorted.some((p) => String(p.id) === tab)) setTab(String(sorted[0].id));
  }, [sorted, tab]);
  const activePosition = Number(tab) || undefined;
  const close = () => setEditor(null);

  if (isApiError(entityError, 404)) return <NotFoundPage />;
  return (
    <Stack data-testid="field-designer">
      <Group justify="space-between">
        <Title order={1} size="h3">
          {t('admin.designer.title')}: {entityName(entity, locale)}
        </Title>
        <Group gap="xs">
          <Button
            size="xs"
            leftSection={<IconPlus size={14} />}
            onClick={() => setEditor({ kind: 'data' })}
            data-testid="designer-add-data-field"
          >
            {t('admin.designer.add_data_field')}
          </Button>
          <Button
            size="xs"
            variant="light"
            leftSection={<IconLink size={14} />}
            onClick={() => setEditor({ kind: 'link' })}
            data-testid="designer-add-link-field"
          >
            {t('admin.designer.add_link_field')}
          </Button>
          <Button
            size="xs"
            variant="light"
            leftSection={<IconTextPlus size={14} />}
            onClick={() => setEditor({ kind: 'display', position: activePosition })}
            data-testid="designer-add-display-field"
          >
            {t('admin.designer.add_display_field')}
          </Button>
          <Button
            size="xs"
            variant="default"
            leftSection={<IconTable size={14} />}
            onClick={() => setEditor({ kind: 'views' })}
            data-testid="designer-custom-views"
          >
            {t('admin.designer.custom_views')}
          </Button>
          <Button
            size="xs"
            variant="subtle"
            component={Link}
            to={`/fieldeditor/${id}?editData=1`}
            data-testid="designer-data-editor"
          >
            {t('admin.designer.data_editor')}
          </Button>
          <Button size="xs" variant="subtle" component={Link} to={`/defdossier/edit/${id}`}>
            {t('admin.entity_edit.title')}
          </Button>
        </Group>
      </Group>
      {isLoading && <Loader />}
      <Tabs value={tab} onChange={setTab} keepMounted={false}>
        {/* the add button beside the tab list, not in it: a tablist holds tabs only */}
        <Group gap={0} wrap="nowrap" align="stretch">
          <Tabs.List style={{ flex: 1 }}>
            {sorted.map((position) => (
              <Tabs.Tab
                key={position.id}
                value={String(position.id)}
                data-testid={`designer-tab-${position.id}`}
              >
                {pickTranslation(position.translations, locale)?.name ||
                  t(`admin.position.types.${position.type}`)}
                <Badge size="xs" variant="light" ml={6}>
                  {t(`admin.position.types.${position.type}`)}
                </Badge>
              </Tabs.Tab>
            ))}
          </Tabs.List>
          <Button
            size="compact-xs"
            variant="subtle"
            leftSection={<IconPlus size={12} />}
            onClick={() => setEditor({ kind: 'position' })}
            data-testid="designer-add-position"
            style={{ alignSelf: 'center' }}
          >
            {t('admin.position.add')}
          </Button>
        </Group>
        {sorted.map((position) => (
          <Tabs.Panel key={position.id} value={String(position.id)} pt="md">
            <PositionToolbar
              position={position}
              positions={sorted}
              onEdit={() => setEditor({ kind: 'position', position })}
            />
            <PositionGrid
              position={position}
              items={items.filter(
                (item) =>
                  item.display_position_id === position.id &&
                  (DESIGNER_VIEWS as readonly string[]).includes(item.view),
              )}
              onEdit={setEditor}
            />
          </Tabs.Panel>
        ))}
      </Tabs>
      {positions && sorted.length === 0 && (
        <Alert color="blue" data-testid="designer-no-positions">
          {t('admin.designer.no_positions')}
        </Alert>
      )}
      <Text size="xs" c="dimmed">
        {t('admin.designer.drag_hint')}
      </Text>

      <DataFieldModal
        opened={editor?.kind === 'data'}
        onClose={close}
        defDossier={id}
        fieldId={editor?.kind === 'data' ? editor.id : undefined}
        onCreated={setCreated}
      />
      <AutoDisplayModal
        field={created}
        defDossier={id}
        defaultPosition={activePosition}
        onClose={() => setCreated(null)}
      />
      <BaseFieldModal
        opened={editor?.kind === 'base'}
        onClose={close}
        fieldId={editor?.kind === 'base' ? editor.id : undefined}
        currentEntity={id}
      />
      <LinkFieldModal
        opened={editor?.kind === 'link'}
        onClose={close}
        defDossier={id}
        linkId={editor?.kind === 'link' ? editor.id : undefined}
      />
      <DisplayItemModal
        opened={editor?.kind === 'display'}
        onClose={close}
        defDossier={id}
        item={editor?.kind === 'display' ? editor.item : undefined}
        defaultPosition={editor?.kind === 'display' ? editor.position : undefined}
        defaultRank={editor?.kind === 'display' ? editor.rank : undefined}
      />
      <PositionModal
        opened={editor?.kind === 'position'}
        onClose={close}
        defDossier={id}
        count={sorted.length}
        position={editor?.kind === 'position' ? editor.position : undefined}
      />
      <CustomViewsModal opened={editor?.kind === 'views'} onClose={close} defDossier={id} />
    </Stack>
  );
}
