import { ActionIcon, Box, Button, Group, Paper, Tooltip } from '@mantine/core';
import { IconPlus, IconRefresh, IconX } from '@tabler/icons-react';
import { type FormEvent, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FieldEditor } from '../../../fields/field-item';
import { itemLabel } from '../../../fields/helpers';
import { useFieldLocale } from '../../../fields/shared';
import { useTokenData } from '../../auth/session';
import { createDossier } from '../dossier-api';
import { dossierMessage } from '../dossier-form';
import { initialValues, itemKey } from '../form-logic';
import { useDossierSubmit } from '../use-dossier-submit';
import { useEntityLayout } from '../use-entity-layout';
import { useFieldSources } from '../use-field-sources';
import { useFormDefaults } from '../use-form-defaults';
import { type LimitLinkPrefill, limitLinkValues, rowInputItems } from './view-logic';

// The row entry form of an embedded list (link setting row_input): the child entity's row_input
// items in one row, sorted by rank then col; Add creates the dossier with customView=row_input,
// linked to the parent. Busy while saving; then the form resets and the lists refresh.

interface Props {
  entityId: number;
  parentDossierId: number;
  linkId: number;
  /** limit_embedded_link: that link's item starts holding the parent */
  prefill?: LimitLinkPrefill | null;
  onSaved: () => void;
}

export function RowEntryForm(props: Props) {
  const { t } = useTranslation();
  const locale = useFieldLocale();
  // the user, not the token: a renewed token is a new object for the same user
  const userId = useTokenData()?.user_id;
  const { layout } = useEntityLayout(props.entityId);
  // the row's items are the form's editable items (the form logic knows the edit views only)
  const items = useMemo(
    () => rowInputItems(layout.items ?? []).map((item) => ({ ...item, view: 'edit' })),
    [layout.items],
  );
  const start = useMemo(
    () => ({
      ...initialValues(items, layout.options, userId),
      ...limitLinkValues(items, props.prefill),
    }),
    [items, layout.options, userId, props.prefill],
  );
  const [values, setValues] = useFormDefaults(start);
  const [resets, setResets] = useState(0);
  const sources = useFieldSources(layout.options);
  const submitter = useDossierSubmit({
    kind: 'create',
    items,
    conditions: layout.settings.conditions,
    send: (payload, ignore) =>
      createDossier(
        { defDossier: props.entityId, values: payload, ignore_existing: ignore },
        { embedded: { parentId: props.parentDossierId, linkId: props.linkId }, customView: 'row_input' },
      ),
    onSaved: () => {
      reset();
      props.onSaved();
    },
  });
  const reset = () => {
    setValues(start);
    submitter.reset();
    setResets((n) => n + 1); // remounts the editors, some keep their own typed text
  };
  if (items.length === 0) return null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void submitter.submit(values);
  };
  return (
    <Paper
      withBorder
      p="xs"
      component="form"
      onSubmit={submit}
      data-testid="row-entry-form"
      aria-busy={submitter.saving}
    >
      <Group align="flex-end" gap="sm" wrap="wrap" key={resets}>
        {items.map((item) => {
          const key = itemKey(item);
          const error = submitter.errors[key];
          return (
            <Box
              key={item.id}
              miw={160}
              style={{ flex: `${Math.max(item.colspan, 1)} 1 0` }}
              data-item-id={item.id}
              data-testid={`row-entry-item-${item.id}`}
            >
              <FieldEditor
                item={item}
                value={values[key]}
                onChange={(value) => {
                  submitter.clearError(key);
                  setValues((current) => ({ ...current, [key]: value }));
                }}
                label={itemLabel(item, locale)}
                error={error ? dossierMessage(t, error) : undefined}
                disabled={submitter.saving}
                {...sources(item)}
              />
            </Box>
          );
        })}
        <Group gap={4} wrap="nowrap">
          <Button
            type="submit"
            leftSection={<IconPlus size={16} />}
            loading={submitter.saving}
            data-testid="row-entry-add"
          >
            {t('dossier.add')}
          </Button>
          <Tooltip label={t('dossier_list.reset')}>
            <ActionIcon
              variant="default"
              size="lg"
              aria-label={t('dossier_list.reset')}
              onClick={reset}
              disabled={submitter.saving}
              data-testid="row-entry-reset"
            >
              <IconX size={16} />
            </ActionIcon>
          </Tooltip>
          <Tooltip label={t('embedded.refresh')}>
            <ActionIcon
              variant="default"
              size="lg"
              aria-label={t('embedded.refresh')}
              onClick={props.onSaved}
              disabled={submitter.saving}
              data-testid="row-entry-refresh"
            >
              <IconRefresh size={16} />
            </ActionIcon>
          </Tooltip>
        </Group>
      </Group>
    </Paper>
  );
}
