import { ListDisplay, ListEditor } from './list';
import type { FieldDisplayProps, FieldEditorProps } from './types';

/** Minimal: a tree's options are offered as a flat (searchable) list; no hierarchy is drawn. */
export function TreeEditor(props: FieldEditorProps) {
  return <ListEditor {...props} type="tree" />;
}

export function TreeDisplay(props: FieldDisplayProps) {
  return <ListDisplay {...props} />;
}
