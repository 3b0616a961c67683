import { parseFieldSettings } from '@dossierbase/core';
import { applyTimeMask } from './helpers';
import { FormattedDisplay, NormalisedTextInput } from './shared';
import type { FieldDisplayProps, FieldEditorProps } from './types';

/** HH:mm, digits only; with disable_limit the hours may pass 23 (a duration). */
export function TimeEditor(props: FieldEditorProps) {
  const settings = parseFieldSettings('time', props.settings);
  return (
    <NormalisedTextInput
      props={props}
      type="time"
      filter={(text) => applyTimeMask(text, settings.disable_limit)}
      inputProps={{ inputMode: 'numeric', placeholder: settings.disable_limit ? 'HHHH:mm' : 'HH:mm' }}
    />
  );
}

export function TimeDisplay(props: FieldDisplayProps) {
  return <FormattedDisplay {...props} type="time" />;
}
