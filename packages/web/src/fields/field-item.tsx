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

export function FieldDisplay(
  props: Omit<FieldDisplayProps, 'settings'> & { settings?: FieldDisplayProps['settings'] },
) {
  const { Display } = getFieldComponents(itemFieldType(props.item));
  const settings = useMemo(() => props.settings ?? itemSettings(props.item), [props.settings, props.item]);
  return <Display {...props} settings={settings} />;
}
