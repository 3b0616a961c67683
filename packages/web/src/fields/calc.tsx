import { useTranslation } from 'react-i18next';
import { FormattedDisplay, ReadOnlyField } from './shared';
import type { FieldDisplayProps, FieldEditorProps } from './types';

/** Calc fields are recalculated by the server: the editor only shows the value. */
export function CalcEditor(props: FieldEditorProps) {
  const { t } = useTranslation();
  return (
    <ReadOnlyField label={props.label}>
      <FormattedDisplay value={props.value} settings={props.settings} item={props.item} type="calc" />
      <div style={{ fontSize: 'var(--mantine-font-size-xs)', color: 'var(--mantine-color-dimmed)' }}>
        {t('fields.calc.recalculated')}
      </div>
    </ReadOnlyField>
  );
}

export function CalcDisplay(props: FieldDisplayProps) {
  return <FormattedDisplay {...props} type="calc" />;
}
