import type { EntityAbilities } from '@dossierbase/core';
import {
  Alert,
  Button,
  Checkbox,
  Group,
  Modal,
  MultiSelect,
  Progress,
  Radio,
  Stack,
  Text,
} from '@mantine/core';
import { IconDownload, IconFileExport } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, api, buildUrl } from '../../../api/client';
import { errorMessage } from '../../../api/errors';

// The export dialog (spec doc 3 sections 2 and 4): the kind (PDF, Word, CSV; a list or a selection
// only CSV), the fields, HTML kept or not; then idle, running with progress (rows done of total, as
// the server streams them), finished with a Download button. Cancel stops the download; changing
// the choice after it finished starts over.

export type ExportTarget =
  | { type: 'dossier'; id: number }
  | { type: 'selection'; ids: readonly number[] }
  /** the list call's query string, with its filters and sort */
  | { type: 'list'; query: string };

type Kind = 'pdf' | 'docx' | 'csv';

const allowedKinds = (abilities: EntityAbilities, target: ExportTarget): Kind[] => [
  ...(target.type === 'dossier' && abilities.canExportPdf ? (['pdf'] as const) : []),
  ...(target.type === 'dossier' && abilities.canExportWord ? (['docx'] as const) : []),
  ...(abilities.canExportCsv ? (['csv'] as const) : []),
];

/** May the user export this target at all (the Export button shows only then). */
export const canExportTarget = (abilities: EntityAbilities, target: ExportTarget) =>
  allowedKinds(abilities, target).length > 0;

function exportUrl(
  entityId: number,
  target: ExportTarget,
  kind: Kind,
  fields: string[],
  keepHtml: boolean,
  lang: string,
) {
  const options = { fields, keepHtml: kind === 'csv' && keepHtml ? '1' : undefined, lang };
  if (target.type === 'dossier') return buildUrl(`/contentdossier/${target.id}/export/${kind}`, options);
  if (target.type === 'selection')
    return buildUrl('/contentdossier/export/csv', { defDossier: entityId, ids: [...target.ids], ...options });
  const extra = buildUrl('', options).replace(/^[^?]*\??/, '');
  return `${buildUrl('/contentdossier/export/csv')}?${target.query}${extra ? `&${extra}` : ''}`;
}

/** The file name the server gave (Content-Disposition), else a plain one. */
function fileNameOf(response: Response, kind: Kind) {
  const header = response.headers.get('content-disposition') ?? '';
  const star = /filename\*=UTF-8''([^;]+)/i.exec(header);
  if (star) return decodeURIComponent(star[1]);
  const plain = /filename="?([^";]+)"?/i.exec(header);
  return plain ? plain[1] : `export.${kind}`;
}

type Status =
  | { state: 'idle' }
  | { state: 'running'; done: number; total: number }
  | { state: 'finished'; url: string; name: string; rows: number }
  | { state: 'failed'; error: unknown };

export function ExportDialog({
  opened,
  onClose,
  entityId,
  abilities,
  target,
}: {
  opened: boolean;
  onClose: () => void;
  entityId: number;
  abilities: EntityAbilities;
  target: ExportTarget;
}) {
  const { t, i18n } = useTranslation();
  const kinds = allowedKinds(abilities, target);
  const [kind, setKind] = useState<Kind>(kinds[0] ?? 'csv');
  const [fields, setFields] = useState<string[]>([]);
  const [keepHtml, setKeepHtml] = useState(false);
  const [status, setStatus] = useState<Status>({ state: 'idle' });
  const abort = useRef<AbortController | null>(null);
  const fieldList = useQuery({
    queryKey: ['export-fields', entityId],
    queryFn: ({ signal }) =>
      api.get<{ results: { id: number; name: string }[] }>(
        '/contentdossier/export/fields',
        { defDossier: entityId },
        signal,
      ),
    enabled: opened,
  });

  // a finished file's address is freed when it is replaced or the dialog goes
  const finishedUrl = status.state === 'finished' ? status.url : null;
  useEffect(() => () => (finishedUrl ? URL.revokeObjectURL(finishedUrl) : undefined), [finishedUrl]);
  useEffect(() => () => abort.current?.abort(), []);

  /** Any change of the choice starts over. */
  const changed =
    <T,>(set: (value: T) => void) =>
    (value: T) => {
      set(value);
      if (status.state !== 'running') setStatus({ state: 'idle' });
    };

  const start = async () => {
    const controller = new AbortController();
    abort.current = controller;
    setStatus({ state: 'running', done: 0, total: 0 });
    try {
      const response = await fetch(exportUrl(entityId, target, kind, fields, keepHtml, i18n.language), {
        credentials: 'include',
        signal: controller.signal,
      });
      if (!response.ok || !response.body) {
        const text = await response.text();
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {}
        throw new ApiError(response.status, body);
      }
      const total = Number(response.headers.get('x-total-count') ?? 0);
      const reader = response.body.getReader();
      const chunks: Uint8Array<ArrayBuffer>[] = [];
      // CSV records end with CR LF (a line break inside a cell is LF alone): they count the rows done
      let records = 0;
      let lastWasCr = false;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        chunks.push(value as Uint8Array<ArrayBuffer>);
        if (kind === 'csv') {
          for (const byte of value) {
            if (lastWasCr && byte === 10) records += 1;
            lastWasCr = byte === 13;
          }
          setStatus({ state: 'running', done: Math.max(records - 1, 0), total });
        }
      }
      const blob = new Blob(chunks, {
        type: response.headers.get('content-type') ?? 'application/octet-stream',
      });
      setStatus({
        state: 'finished',
        url: URL.createObjectURL(blob),
        name: fileNameOf(response, kind),
        rows: kind === 'csv' ? Math.max(records - 1, 0) : 1,
      });
    } catch (error) {
      setStatus(controller.signal.aborted ? { state: 'idle' } : { state: 'failed', error });
    } finally {
      abort.current = null;
    }
  };
  const close = () => {
    abort.current?.abort();
    setStatus({ state: 'idle' });
    onClose();
  };

  const running = status.state === 'running';
  return (
    <Modal opened={opened} onClose={close} title={t('export.title')} size="lg">
      <Stack data-testid="export-dialog">
        <Radio.Group
          label={t('export.kind')}
          value={kind}
          onChange={changed((value: string) => setKind(value as Kind))}
        >
          <Group mt="xs">
            {kinds.map((k) => (
              <Radio
                key={k}
                value={k}
                label={t(`export.kinds.${k}`)}
                disabled={running}
                data-testid={`export-kind-${k}`}
              />
            ))}
          </Group>
        </Radio.Group>
        {fieldList.data && fieldList.data.results.length === 0 ? (
          <Text c="dimmed">{t('export.no_fields')}</Text>
        ) : (
          <MultiSelect
            label={t('export.fields')}
            placeholder={fields.length ? undefined : t('export.all_fields')}
            data={(fieldList.data?.results ?? []).map((f) => ({ value: String(f.id), label: f.name }))}
            value={fields}
            onChange={changed(setFields)}
            disabled={running}
            searchable
            clearable
            comboboxProps={{ withinPortal: true }}
            data-testid="export-fields"
          />
        )}
        {kind === 'csv' ? (
          <Checkbox
            label={t('export.keep_html')}
            checked={keepHtml}
            disabled={running}
            onChange={(event) => changed(setKeepHtml)(event.currentTarget.checked)}
            data-testid="export-keep-html"
          />
        ) : null}
        {status.state === 'running' ? (
          <Stack gap={4}>
            <Progress
              value={status.total ? (status.done / status.total) * 100 : 0}
              animated={!status.total}
              aria-label={t('export.progress', { done: status.done, total: status.total })}
              data-testid="export-progress"
            />
            {kind === 'csv' ? (
              <Text size="sm" c="dimmed" aria-live="polite">
                {t('export.progress', { done: status.done, total: status.total })}
              </Text>
            ) : null}
          </Stack>
        ) : null}
        {status.state === 'finished' ? (
          <Alert color="green" data-testid="export-finished">
            {t('export.finished', { count: status.rows })}
          </Alert>
        ) : null}
        {status.state === 'failed' ? (
          <Alert color="red" role="alert" data-testid="export-failed">
            {errorMessage(status.error, t)}
          </Alert>
        ) : null}
        <Group justify="flex-end">
          <Button
            variant="default"
            onClick={running ? () => abort.current?.abort() : close}
            data-testid="export-cancel"
          >
            {running ? t('export.cancel') : t('common.close')}
          </Button>
          {status.state === 'finished' ? (
            <Button
              component="a"
              href={status.url}
              download={status.name}
              leftSection={<IconDownload size={16} />}
              data-testid="export-download"
            >
              {t('export.download')}
            </Button>
          ) : (
            <Button
              leftSection={<IconFileExport size={16} />}
              loading={running}
              disabled={kinds.length === 0}
              onClick={() => void start()}
              data-testid="export-start"
            >
              {t('export.start')}
            </Button>
          )}
        </Group>
      </Stack>
    </Modal>
  );
}

/** The Export button that opens the dialog; shown only when some kind is allowed for the target. */
export function ExportButton({
  entityId,
  abilities,
  target,
  testId,
}: {
  entityId: number;
  abilities: EntityAbilities;
  target: ExportTarget;
  testId: string;
}) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  if (!canExportTarget(abilities, target)) return null;
  return (
    <>
      <Button
        variant="default"
        leftSection={<IconFileExport size={16} />}
        onClick={() => setOpened(true)}
        data-testid={testId}
      >
        {t('export.button')}
      </Button>
      {opened ? (
        <ExportDialog
          opened={opened}
          onClose={() => setOpened(false)}
          entityId={entityId}
          abilities={abilities}
          target={target}
        />
      ) : null}
    </>
  );
}
