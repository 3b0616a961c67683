import type { Block, DisplayItem, Dossier } from '@dossierbase/core';
import { ActionIcon, Box, Button, Group, Popover, Stack, Text } from '@mantine/core';
import { IconPencil } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { actionErrorMessage } from '../../api/errors';
import { FieldEditor, itemLabel } from '../../fields';
import { useFieldLocale } from '../../fields/shared';
import { updateDossier } from '../dossiers/dossier-api';
import { dossierMessage } from '../dossiers/dossier-form';
import { useEntityLayout } from '../dossiers/use-entity-layout';
import { useFieldSources } from '../dossiers/use-field-sources';

// A value of a dossier list block edited in place (inline_edit): the list column's field is edited
// through the entity's edit item of the same field, and saved with the dossier's ordinary update call
// (PUT /contentdossier/{id} for that item's tab), which checks the edit permission and the value.

const EDIT_VIEWS = ['edit', 'show/edit'];

export function InlineEdit({
  block,
  dossier,
  item,
  value,
  children,
}: {
  block: Block;
  dossier: Dossier;
  item: DisplayItem;
  value: unknown;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const locale = useFieldLocale();
  const [opened, setOpened] = useState(false);
  const label = itemLabel(item, locale);
  return (
    <Group gap={4} wrap="nowrap" justify="space-between">
      <Box>{children}</Box>
      <Popover opened={opened} onChange={setOpened} trapFocus withinPortal position="bottom-end" shadow="md">
        <Popover.Target>
          <ActionIcon
            variant="subtle"
            size="sm"
            aria-label={t('dashboard_page.edit_value', {
              field: label,
              dossier: dossier.summary || dossier.id,
            })}
            onClick={() => setOpened((o) => !o)}
            data-testid="block-inline-edit"
          >
            <IconPencil size={14} />
          </ActionIcon>
        </Popover.Target>
        <Popover.Dropdown>
          {opened && (
            <InlineEditor
              block={block}
              dossier={dossier}
              item={item}
              value={value}
              onDone={() => setOpened(false)}
            />
          )}
        </Popover.Dropdown>
      </Popover>
    </Group>
  );
}

function InlineEditor({
  block,
  dossier,
  item,
  value,
  onDone,
}: {
  block: Block;
  dossier: Dossier;
  item: DisplayItem;
  value: unknown;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { layout, loading } = useEntityLayout(dossier.def_dossier_id);
  const sources = useFieldSources(layout.options);
  const [draft, setDraft] = useState<unknown>(value ?? null);
  const field = item.def_dossier_def_field?.id;
  const editItem = (layout.items ?? []).find(
    (candidate) => EDIT_VIEWS.includes(candidate.view) && candidate.def_dossier_def_field?.id === field,
  );
  const save = useMutation({
    mutationFn: (target: DisplayItem) =>
      updateDossier(dossier.id, target.display_position_id ?? null, {
        values: { [String(target.id)]: draft },
        ignore_existing: false,
      }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['dashboard', 'data', block.id] });
      onDone();
    },
  });
  if (loading) return <Text size="sm">{t('dashboard.loading')}</Text>;
  if (!editItem)
    return (
      <Text size="sm" c="dimmed" maw={260}>
        {t('dashboard_page.not_editable')}
      </Text>
    );
  const fieldErrors = (save.error as { fieldErrors?: Record<string, string> } | null)?.fieldErrors ?? {};
  const error = fieldErrors[String(editItem.id)];
  return (
    <Stack gap="xs" w={280} data-testid="block-inline-editor">
      <FieldEditor
        item={editItem}
        value={draft}
        onChange={setDraft}
        error={error ? dossierMessage(t, error) : undefined}
        {...sources(editItem)}
      />
      {save.isError && !error && (
        <Text size="xs" c="red" role="alert">
          {actionErrorMessage(save.error, t)}
        </Text>
      )}
      <Group justify="flex-end" gap="xs">
        <Button variant="default" size="xs" onClick={onDone}>
          {t('common.cancel')}
        </Button>
        <Button
          size="xs"
          loading={save.isPending}
          onClick={() => save.mutate(editItem)}
          data-testid="block-inline-save"
        >
          {t('dossier.save')}
        </Button>
      </Group>
    </Stack>
  );
}
