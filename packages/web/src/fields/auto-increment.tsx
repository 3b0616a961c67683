import { FormattedDisplay } from './shared';
import type { FieldDisplayProps } from './types';

/** autoIncrement has no editor (not shown in edit mode); the registry maps its Editor to null. */
export function AutoIncrementEditor() {
  return null;
}

export function AutoIncrementDisplay(props: FieldDisplayProps) {
  return <FormattedDisplay {...props} type="autoIncrement" />;
}
