import { Alert } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { itemFieldType } from './helpers';
import type { FieldDisplayProps } from './types';

/** Shown for an item whose field type the client does not know. */
export function UnknownFieldType({ item }: Pick<FieldDisplayProps, 'item'>) {
  const { t } = useTranslation();
  return (
    <Alert color="red" variant="light" data-testid="unknown-field-type">
      {t('fields.unknown_type', { type: itemFieldType(item) ?? '?' })}
    </Alert>
  );
}
