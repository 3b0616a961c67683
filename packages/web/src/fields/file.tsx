import {
  type FileBody,
  type FileSettings,
  isFileTypeAllowed,
  MAX_FILE_BYTES,
  parseFieldSettings,
} from '@dossierbase/core';
import { ActionIcon, Anchor, Button, FileInput, Group, Image, Input, Loader, Stack } from '@mantine/core';
import { IconDownload, IconPaperclip, IconX } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  acceptOf,
  dataUrlToFile,
  fileDownloadUrl,
  fileQueryKey,
  isPreviewableImage,
  SIGNATURE_FILE_NAME,
  uploadToServer,
  useFileInfos,
} from './file-api';
import { emitNormalised, idsOf, idsToValue } from './helpers';
import { FieldGroup } from './shared';
import type { FieldDisplayProps, FieldEditorProps } from './types';

const SignatureCanvas = lazy(() => import('./signature-pad'));

/** The page's uploadFile, else the server's POST /api/file in the current environment. */
function useUploader(props: FieldEditorProps) {
  const queryClient = useQueryClient();
  if (props.uploadFile) return props.uploadFile;
  return async (file: File) => {
    // Read when uploading: the store touches localStorage, which pure imports of fields/ must not need.
    const { environmentStore } = await import('../features/environments/environment-store');
    const environment = environmentStore.get();
    if (!environment) throw new Error('No environment chosen');
    const stored: FileBody = await uploadToServer(file, environment.id);
    queryClient.setQueryData(fileQueryKey(stored.id), stored);
    return { id: stored.id, name: stored.filename };
  };
}

/** One stored file: an inline image preview when asked for, else (and always) a named download link. */
function FileEntry({
  id,
  info,
  loading,
  preview,
  settings,
  signature,
  onRemove,
}: {
  id: number;
  info: FileBody | undefined;
  loading: boolean;
  preview: boolean;
  settings: FileSettings;
  signature: boolean;
  onRemove?: () => void;
}) {
  const { t } = useTranslation();
  const [shown, setShown] = useState(settings.preview_direct || signature);
  const url = fileDownloadUrl(id);
  const name = signature ? SIGNATURE_FILE_NAME : (info?.filename ?? `#${id}`);
  const image = isPreviewableImage(info?.mime);
  return (
    <Stack gap={4} data-testid={`file-entry-${id}`}>
      <Group gap="xs" wrap="nowrap">
        {loading ? <Loader size="xs" /> : <IconPaperclip size={16} />}
        <Anchor href={url} download={name} size="sm" data-testid={`file-download-${id}`}>
          {name}
        </Anchor>
        <ActionIcon
          component="a"
          href={url}
          download={name}
          variant="subtle"
          size="sm"
          aria-label={t('fields.file.download', { name })}
        >
          <IconDownload size={14} />
        </ActionIcon>
        {preview && image && !settings.preview_direct && !signature ? (
          <Anchor
            component="button"
            type="button"
            size="xs"
            data-testid={`file-preview-toggle-${id}`}
            onClick={() => setShown((s) => !s)}
          >
            {shown ? t('fields.file.hide_preview') : t('fields.file.show_preview')}
          </Anchor>
        ) : null}
        {onRemove ? (
          <ActionIcon
            variant="subtle"
            color="red"
            size="sm"
            aria-label={t('fields.file.remove', { name })}
            data-testid={`file-remove-${id}`}
            onClick={onRemove}
          >
            <IconX size={14} />
          </ActionIcon>
        ) : null}
      </Group>
      {preview && image && shown ? (
        <Image
          src={url}
          alt={name}
          data-testid={`file-preview-${id}`}
          maw={settings.preview_width}
          mah={settings.preview_height}
          w="auto"
          fit="contain"
          style={{ border: '1px solid var(--mantine-color-default-border)', borderRadius: 4 }}
        />
      ) : null}
    </Stack>
  );
}

function FileList({
  ids,
  settings,
  listMode,
  onRemove,
}: {
  ids: number[];
  settings: FileSettings;
  listMode?: boolean;
  onRemove?: (id: number) => void;
}) {
  const infos = useFileInfos(ids);
  if (ids.length === 0) return null;
  return (
    <Stack gap="xs">
      {ids.map((id, i) => (
        <FileEntry
          key={id}
          id={id}
          info={infos[i]?.data}
          loading={infos[i]?.isLoading ?? false}
          preview={!listMode && (settings.file_preview || settings.signature)}
          settings={settings}
          signature={settings.signature}
          onRemove={onRemove ? () => onRemove(id) : undefined}
        />
      ))}
    </Stack>
  );
}

/**
 * Picks files (type checked against file_types), uploads them and stores the file id(s); shows the
 * stored files with previews and download links. Signature mode draws on a pad instead and stores the
 * PNG as signature.png.
 */
export function FileEditor(props: FieldEditorProps) {
  const { t } = useTranslation();
  const settings = parseFieldSettings('file', props.settings);
  const upload = useUploader(props);
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const current = idsOf(props.value);

  const emit = (ids: number[]) => {
    setMessage(emitNormalised(props, 'file', idsToValue(ids, settings.multiple)));
  };

  const uploadAll = async (files: File[]) => {
    if (!upload || files.length === 0) return;
    const refused = files.find((f) => !isFileTypeAllowed(f.type, settings));
    if (refused) {
      setMessage(t('fields.file.type_not_allowed', { name: refused.name }));
      return;
    }
    const tooLarge = files.find((f) => f.size > MAX_FILE_BYTES);
    if (tooLarge) {
      setMessage(t('fields.file.too_large', { name: tooLarge.name, size: MAX_FILE_BYTES / 1024 / 1024 }));
      return;
    }
    setBusy(true);
    try {
      const ids: number[] = [];
      for (const file of files) ids.push((await upload(file)).id);
      emit(settings.multiple ? [...current, ...ids] : ids.slice(-1));
    } catch {
      setMessage(t('fields.file.upload_failed'));
    } finally {
      setBusy(false);
    }
  };

  const remove = props.disabled ? undefined : (id: number) => emit(current.filter((x) => x !== id));
  const error = props.error ?? message;

  if (settings.signature) {
    return (
      <Input.Wrapper
        label={props.label}
        labelElement="div"
        description={props.description}
        withAsterisk={props.required}
        error={error}
        data-testid="signature-field"
      >
        <FieldGroup invalid={Boolean(error)}>
          {current.length > 0 ? (
            <Stack gap="xs" align="flex-start">
              <FileList ids={current} settings={settings} />
              <Button
                size="xs"
                variant="default"
                disabled={props.disabled}
                data-testid="signature-again"
                onClick={() => emit([])}
              >
                {t('fields.file.signature_again')}
              </Button>
            </Stack>
          ) : (
            <Suspense fallback={<Loader size="sm" />}>
              <SignatureCanvas
                disabled={props.disabled || !upload}
                busy={busy}
                onSave={(dataUrl) => void uploadAll([dataUrlToFile(dataUrl, SIGNATURE_FILE_NAME)])}
              />
            </Suspense>
          )}
        </FieldGroup>
      </Input.Wrapper>
    );
  }

  return (
    <Stack gap="xs">
      <FileInput
        label={props.label}
        description={props.description}
        withAsterisk={props.required}
        error={error}
        disabled={props.disabled || busy || !upload}
        multiple={settings.multiple}
        accept={acceptOf(settings)}
        placeholder={busy ? t('fields.file.uploading') : t('fields.file.choose')}
        leftSection={busy ? <Loader size="xs" /> : <IconPaperclip size={16} />}
        value={settings.multiple ? [] : null}
        data-testid="file-input"
        onChange={(f) => void uploadAll(f === null ? [] : Array.isArray(f) ? f : [f])}
      />
      <FileList ids={current} settings={settings} onRemove={remove} />
    </Stack>
  );
}

/** The stored files as download links; images previewed as the settings ask (not in lists). */
export function FileDisplay({ value, settings, listMode }: FieldDisplayProps) {
  const s = parseFieldSettings('file', settings);
  const ids = idsOf(value);
  if (ids.length === 0) return null;
  return <FileList ids={ids} settings={s} listMode={listMode} />;
}
