import { FormattedDisplay, ReadOnlyField } from './shared';
import type { FieldDisplayProps, FieldEditorProps } from './types';

/** created_at / modified_at and created_by / modified_by: set by the server, shown read-only. */
export function SystemdateDisplay(props: FieldDisplayProps) {
  return <FormattedDisplay {...props} type="systemdate" />;
}

export function SystemuserDisplay(props: FieldDisplayProps) {
  return <FormattedDisplay {...props} type="systemuser" />;
}

export function SystemdateEditor(props: FieldEditorProps) {
  return (
    <ReadOnlyField label={props.label}>
      <SystemdateDisplay value={props.value} settings={props.settings} item={props.item} />
    </ReadOnlyField>
  );
}

export function SystemuserEditor(props: FieldEditorProps) {
  return (
    <ReadOnlyField label={props.label}>
      <SystemuserDisplay
        value={props.value}
        settings={props.settings}
        item={props.item}
        users={props.users}
      />
    </ReadOnlyField>
  );
}
