import { Button } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { itemLabel } from './helpers';
import { useFieldLocale } from './shared';
import type { FieldDisplayProps, FieldEditorProps } from './types';

/** Minimal: a button with the item's name that calls onAction(item); the page runs the action. */
export function CustomActionButton({
  item,
  onAction,
  disabled,
}: Pick<FieldEditorProps, 'item' | 'onAction' | 'disabled'>) {
  const { t } = useTranslation();
  const locale = useFieldLocale();
  return (
    <Button variant="light" disabled={disabled || !onAction} onClick={() => onAction?.(item)}>
      {itemLabel(item, locale) || t('fields.action.run')}
    </Button>
  );
}

export function CustomActionButtonEditor(props: FieldEditorProps) {
  return <CustomActionButton item={props.item} onAction={props.onAction} disabled={props.disabled} />;
}

export function CustomActionButtonDisplay(props: FieldDisplayProps) {
  return <CustomActionButton item={props.item} onAction={props.onAction} />;
}
