import { type DisplayItem, displayItemRows, parseFieldSettings, valueTypeOf } from '@dossierbase/core';
import { useMemo } from 'react';
import { itemFieldType, itemLabel, itemObligatory, itemSettings } from './helpers';
import { getFieldComponents } from './registry';
import { useFieldLocale } from './shared';
import type { FieldDisplayProps, FieldEditorProps } from './types';

type Derived = 'settings' | 'label' | 'required';

/**
 * Convenience wrappers for pages: pick the components by the item's field type and fill in settings,
 * label (the item's translation) and required (obligatory) from the item unless given.
 */
export function FieldEditor(
  props: Omit<FieldEditorProps, Derived> & Partial<Pick<FieldEditorProps, Derived>>,
) {
  const locale = useFieldLocale();
  const { Editor } = getFieldComponents(itemFieldType(props.item));
  const settings = useMemo(() => props.settings ?? itemSettings(props.item), [props.settings, props.item]);
  if (!Editor) return null;
  return (
    <Editor
      {...props}
      settings={settings}
      label={props.label ?? itemLabel(props.item, locale)}
      required={props.required ?? itemObligatory(props.item)}
    />
  );
}

/** A block item (settings.block) shows its dashboard block; until blocks exist, nothing. */
export function isBlockItem(item: DisplayItem): boolean {
  return Boolean(item.settings?.block) && valueTypeOf(displayItemRows(item)) === null;
}

/**
 * The value of a display item: a field or link by its type, dossier data (summary, id, creator,
 * dates) as the type it shows as, the same way the list shows it; a block item shows nothing.
 */
export function FieldDisplay(
  props: Omit<FieldDisplayProps, 'settings'> & { settings?: FieldDisplayProps['settings'] },
) {
  const { item } = props;
  const fieldType = itemFieldType(item);
  const valueType = fieldType ?? valueTypeOf(displayItemRows(item));
  const { Display } = getFieldComponents(valueType);
  const settings = useMemo(
    () =>
      props.settings ??
      (fieldType || !valueType ? itemSettings(item) : parseFieldSettings(valueType, item.settings)),
    [props.settings, item, fieldType, valueType],
  );
  if (isBlockItem(item)) return null;
  return <Display {...props} settings={settings} />;
}
