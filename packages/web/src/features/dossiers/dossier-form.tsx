import type { Condition, DisplayItem } from '@dossierbase/core';
import { DOSSIER_MESSAGES } from '@dossierbase/core';
import { Box, Stack, Text } from '@mantine/core';
import { useViewportSize } from '@mantine/hooks';
import type { TFunction } from 'i18next';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { FieldDisplay, FieldEditor, isBlockItem } from '../../fields/field-item';
import { itemLabel } from '../../fields/helpers';
import { ItemInformationDirect, ItemLabel, ItemPreText } from '../../fields/information-text';
import { useFieldLocale } from '../../fields/shared';
import type { FieldSources } from '../../fields/types';
import { translateMessage } from '../../i18n/messages';
import { layoutRows, minimumSpan } from '../admin/grid';
import { DossierBlockItem } from '../dashboard/dossier-block-item';
import type { DossierValues } from './dossier-api';
import { type FormMode, firstErrorItem, formRules, isEditable, itemKey, itemsForMode } from './form-logic';
import { EmbeddedList } from './views/embedded-list';

// The display items of one position on the 12-column grid: the type's Editor in edit mode, its
// Display in show mode, with labels, required asterisks, conditions and server errors.

/** Server messages of the dossier calls in the UI language. */
export function dossierMessage(t: TFunction, message: string): string {
  if (message === DOSSIER_MESSAGES.required) return t('validation.required');
  if (message === DOSSIER_MESSAGES.duplicate) return t('dossier.duplicate_value');
  if (message === DOSSIER_MESSAGES.archived) return t('dossier.archived');
  if (message === DOSSIER_MESSAGES.singleLink) return t('dossier.single_link');
  if (message === DOSSIER_MESSAGES.hiddenItem) return t('dossier.hidden_item');
  return translateMessage(t, message);
}

/** Puts the focus on the first field (in layout order) that has an error. */
export function focusFirstError(items: readonly DisplayItem[], errors: Record<string, string>) {
  const item = firstErrorItem(items, errors);
  if (!item) return;
  requestAnimationFrame(() => {
    const box = document.querySelector(`[data-item-id="${item.id}"]`);
    const target = box?.querySelector<HTMLElement>(
      'input, textarea, [contenteditable="true"], button, select',
    );
    box?.scrollIntoView({ block: 'center' });
    target?.focus();
  });
}

export interface DossierFormProps {
  items: readonly DisplayItem[];
  mode: FormMode;
  values: DossierValues;
  onChange?: (key: string, value: unknown) => void;
  /** Values of the whole dossier for the conditions (other tabs' items included); defaults to values. */
  conditionValues?: DossierValues;
  conditions: readonly Condition[];
  errors?: Record<string, string>;
  sources: (item: DisplayItem) => FieldSources;
  disabled?: boolean;
  testId?: string;
  /** the saved dossier the form shows: its embedded-list links show their linked dossiers, its block
   * items draw their blocks about it (none on a new dossier) */
  dossier?: { id: number; environmentId: number; summary?: string };
  /**
   * Links not shown: a dossier shown inside an embedded list hides the link back to the dossier it
   * is shown in (spec doc 2 section 4).
   */
  hiddenLinkIds?: readonly number[];
}

export function DossierForm(props: DossierFormProps) {
  const { t } = useTranslation();
  const locale = useFieldLocale();
  const { width } = useViewportSize();
  const { items, mode, values, conditions } = props;
  const shown = useMemo(() => itemsForMode(items, mode), [items, mode]);
  const { hidden, required } = formRules(shown, conditions, { ...props.conditionValues, ...values });
  // A block item shows its block about the dossier; a new dossier has none to show it about.
  const visible = shown.filter(
    (item) =>
      !hidden.has(itemKey(item)) &&
      (!isBlockItem(item) || props.dossier !== undefined) &&
      !(item.def_dossier_link && props.hiddenLinkIds?.includes(item.def_dossier_link.id)),
  );
  const rows = layoutRows(visible, width > 0 ? minimumSpan(width) : 1);

  if (visible.length === 0)
    return (
      <Text c="dimmed" size="sm" data-testid={`${props.testId ?? 'dossier-form'}-empty`}>
        {t('dossier.no_fields')}
      </Text>
    );

  return (
    <Stack gap="md" data-testid={props.testId ?? 'dossier-form'}>
      {rows.map((row) => (
        <Box
          key={row.map((cell) => cell.item.id).join('-')}
          style={{
            display: 'grid',
            gridTemplateColumns: 'repeat(12, minmax(0, 1fr))',
            columnGap: 16,
            rowGap: 16,
          }}
        >
          {row.map(({ item, col, span }) => {
            const key = itemKey(item);
            const error = props.errors?.[key];
            const label = itemLabel(item, locale);
            const editable = mode === 'edit' && isEditable(item) && !props.disabled;
            return (
              <Box
                key={item.id}
                style={{ gridColumn: `${col} / span ${span}` }}
                data-item-id={item.id}
                data-testid={`dossier-item-${item.id}`}
              >
                <ItemPreText item={item} />
                {isBlockItem(item) && props.dossier ? (
                  <DossierBlockItem item={item} dossierId={props.dossier.id} />
                ) : props.dossier && item.def_dossier_link?.type_of_link === 'embeddedList' ? (
                  <EmbeddedList
                    item={item}
                    parentDossierId={props.dossier.id}
                    parentSummary={props.dossier.summary}
                    environmentId={props.dossier.environmentId}
                    label={<ItemLabel item={item} label={label} />}
                  />
                ) : editable ? (
                  <FieldEditor
                    item={item}
                    value={values[key]}
                    onChange={(value) => props.onChange?.(key, value)}
                    label={<ItemLabel item={item} label={label} />}
                    required={required.has(key)}
                    error={error ? dossierMessage(t, error) : undefined}
                    {...props.sources(item)}
                  />
                ) : (
                  <Stack gap={2}>
                    <Text size="sm" fw={500}>
                      <ItemLabel item={item} label={label} />
                    </Text>
                    <Box data-testid={`dossier-value-${item.id}`}>
                      <FieldDisplay item={item} value={values[key]} {...props.sources(item)} />
                    </Box>
                    {error ? (
                      <Text size="xs" c="red" role="alert">
                        {dossierMessage(t, error)}
                      </Text>
                    ) : null}
                  </Stack>
                )}
                <ItemInformationDirect item={item} />
              </Box>
            );
          })}
        </Box>
      ))}
    </Stack>
  );
}
