import { type FileSettings, isFileTypeAllowed } from '@dossierbase/core';
import { FileInput, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  FORMAT_LOCALE,
  formatFieldValue,
  idsOf,
  idsToValue,
  parseSettings,
  validateFieldValue,
} from './helpers';
import type { FieldDisplayProps, FieldEditorProps } from './types';

/**
 * Minimal: picks files, checks their type against file_types (the registry's isFileTypeAllowed) and
 * hands them to uploadFile; the value becomes the returned file id(s). No previews, no signature pad.
 */
export function FileEditor(props: FieldEditorProps) {
  const { t } = useTranslation();
  const settings = parseSettings<FileSettings>('file', props.settings);
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const current = idsOf(props.value);

  const upload = async (files: File[]) => {
    if (!props.uploadFile || files.length === 0) return;
    const refused = files.find((f) => !isFileTypeAllowed(f.type, settings));
    if (refused) {
      setMessage(t('fields.file.type_not_allowed', { name: refused.name }));
      return;
    }
    setBusy(true);
    try {
      const ids = [];
      for (const file of files) ids.push((await props.uploadFile(file)).id);
      const next = settings.multiple ? [...current, ...ids] : ids.slice(-1);
      const result = validateFieldValue('file', idsToValue(next, settings.multiple), settings, props.ctx);
      if (result.ok) {
        setMessage(null);
        props.onChange(result.value);
      } else setMessage(result.message);
    } catch {
      setMessage(t('fields.file.upload_failed'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <FileInput
      label={props.label}
      description={props.description ?? formatFieldValue('file', props.value, settings)}
      withAsterisk={props.required}
      error={props.error ?? message}
      disabled={props.disabled || busy || !props.uploadFile}
      multiple={settings.multiple}
      clearable
      placeholder={t('fields.file.choose')}
      value={null}
      onChange={(f) => void upload(f === null ? [] : Array.isArray(f) ? f : [f])}
    />
  );
}

/** Minimal: the registry's "n files" text. */
export function FileDisplay({ value, settings }: FieldDisplayProps) {
  const text = formatFieldValue('file', value, settings, FORMAT_LOCALE);
  return text ? <Text span>{text}</Text> : null;
}
