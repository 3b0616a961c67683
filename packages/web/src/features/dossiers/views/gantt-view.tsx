import {
  DEFAULT_GANTT_ZOOM,
  type DisplayItem,
  type DossierListBody,
  GANTT_SUBTASK_LIMIT,
  GANTT_ZOOMS,
  type GanttZoom,
} from '@dossierbase/core';
import { Alert, Button, Group, List, Loader, SegmentedControl, Stack, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { useQueries, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, apiRequest } from '../../../api/client';
import { actionErrorMessage } from '../../../api/errors';
import { useFieldLocale } from '../../../fields/shared';
import { useEnvironment } from '../../environments/environment-store';
import { dossierListKeys, useItemOptions } from '../list/list-api';
import { useEnvironmentUsers } from '../use-environment-users';
import type { ChartRow } from './gantt-chart';
import {
  type GanttFields,
  type GanttItem,
  ganttConfig,
  ganttItems,
  lastDayOf,
  projectDatesFor,
  startOfDay,
  storedDay,
} from './gantt-data';
import type { LinkedViewProps } from './linked-view';
import {
  fetchViewList,
  itemOfField,
  linkedViewKeys,
  useEntityDefinition,
  useViewList,
  type ViewListQuery,
} from './view-data';

const GanttChart = lazy(() => import('./gantt-chart'));

/** Projects read at once (the list call's largest page). */
const PROJECT_LIMIT = 500;

/**
 * The gantt of an embedded list (spec doc 3 sections 3 to 9): the linked dossiers are projects, each
 * with its tasks (gantt_task_link, read when it is expanded, at most 100). Moving or resizing a bar
 * saves its dates (PATCH ...?displayCustomView=Gantt); a task moved outside its project asks to
 * move the project's dates with it.
 */
export function GanttView(props: LinkedViewProps) {
  const { t } = useTranslation();
  const locale = useFieldLocale();
  const queryClient = useQueryClient();
  const environment = useEnvironment();
  const admin = environment?.abilities?.canAdminister ?? false;
  const seesWarnings = environment?.abilities?.canSeeGanttWarnings ?? false;
  const [zoom, setZoom] = useState<GanttZoom>(DEFAULT_GANTT_ZOOM);
  // projects are collapsed until expanded (spec doc 3 section 4)
  const [open, setOpen] = useState<ReadonlySet<number>>(new Set());
  // bumped to draw again from the data after a move that was refused or cancelled
  const [redraws, setRedraws] = useState(0);
  const [refusal, setRefusal] = useState<string | null>(null);

  const entity = useEntityDefinition(props.entityId);
  const config = ganttConfig(entity.data?.settings as Record<string, unknown> | undefined);
  const configured = config.project.start !== null && config.project.end !== null;
  const projects = useViewList(
    entity.data && configured
      ? {
          defDossier: props.entityId,
          embedded: props.parentDossierId,
          linkId: props.linkId,
          view: 'Gantt',
          limit: PROJECT_LIMIT,
        }
      : null,
  );
  const taskLink = projects.data?.results.gantt ?? null;
  const openIds = [...open].sort((a, b) => a - b);
  const taskQuery = (projectId: number): ViewListQuery | null =>
    taskLink
      ? {
          defDossier: taskLink.task_entity_id,
          embedded: projectId,
          linkId: taskLink.task_link_id,
          view: 'Gantt',
          limit: GANTT_SUBTASK_LIMIT,
        }
      : null;
  const taskAnswers = useQueries({
    queries: openIds.map((projectId) => {
      const query = taskQuery(projectId);
      return {
        queryKey: linkedViewKeys.list(query ?? ({} as ViewListQuery)),
        queryFn: ({ signal }: { signal: AbortSignal }) => fetchViewList(query as ViewListQuery, signal),
        enabled: query !== null,
        staleTime: 0,
      };
    }),
  });
  const tasksOf = new Map<number, DossierListBody | undefined>(
    openIds.map((id, index) => [id, taskAnswers[index]?.data]),
  );

  const allItems: DisplayItem[] = [
    ...(projects.data?.results.items ?? []),
    ...[...tasksOf.values()].flatMap((body) => body?.results.items ?? []),
  ];
  const optionsOf = useItemOptions(allItems, admin);
  const projectItems = ganttItems(projects.data, 'project', config.project, {
    projectId: null,
    optionsOf,
    locale,
  });
  const taskItems = new Map(
    [...tasksOf].map(([projectId, body]) => [
      projectId,
      body ? ganttItems(body, 'task', config.task, { projectId, optionsOf, locale }).items : undefined,
    ]),
  );
  const resourceIds = [...taskItems.values()].flatMap((items) => items?.flatMap((i) => i.resource) ?? []);
  const { users } = useEnvironmentUsers(resourceIds);

  const nameOf = (id: number) => users.find((u) => u.id === id)?.name ?? `#${id}`;
  const row = (item: GanttItem, key: string, extra: Partial<ChartRow> = {}): ChartRow => ({
    key,
    item,
    resource: item.resource.map(nameOf).join(', '),
    ...extra,
  });
  const freshRows = projectItems.items.flatMap((project) => {
    const id = project.dossier.id;
    const tasks = taskItems.get(id);
    // the chart opens only a row that has rows under it
    const isOpen = open.has(id) && tasks !== undefined && tasks.length > 0;
    return [
      row(project, `p${id}`, { open: isOpen, hasTasks: tasks === undefined ? undefined : tasks.length > 0 }),
      ...(isOpen ? (tasks ?? []).map((task) => row(task, `t${id}-${task.dossier.id}`)) : []),
    ];
  });
  // The chart draws anew when its rows change: they keep their identity while what they show is the
  // same, and change after a move that was refused or cancelled (redraws), to draw the stored dates.
  const signature = `${redraws}:${JSON.stringify(freshRows)}`;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the signature stands for the rows
  const rows = useMemo(() => freshRows, [signature]);

  const withTime = (body: DossierListBody | undefined, field: number | null) =>
    Boolean(itemOfField(body, field)?.def_dossier_def_field?.def_field.settings?.withtime);

  /** Saves a bar's first and last day; false when refused (the message is shown). */
  async function save(
    item: GanttItem,
    fields: GanttFields,
    body: DossierListBody | undefined,
    dates: { start: Date; end: Date },
  ): Promise<boolean> {
    const values: Record<string, string> = {};
    if (fields.updateStart !== null)
      values[fields.updateStart] = storedDay(dates.start, withTime(body, fields.start));
    if (fields.updateEnd !== null)
      values[fields.updateEnd] = storedDay(dates.end, withTime(body, fields.end));
    try {
      await apiRequest(`/contentdossier/${item.dossier.id}`, {
        method: 'PATCH',
        query: { displayCustomView: 'Gantt' },
        body: { values },
      });
      return true;
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      setRefusal(
        error.status === 403
          ? t(
              item.kind === 'task'
                ? 'linked_views.gantt.no_rights_tasks'
                : 'linked_views.gantt.no_rights_projects',
            )
          : actionErrorMessage(error, t),
      );
      return false;
    }
  }

  async function afterSave(ok: boolean) {
    if (ok) {
      setRefusal(null);
      notifications.show({ message: t('linked_views.gantt.saved'), color: 'green' });
    }
    setRedraws((n) => n + 1);
    await queryClient.invalidateQueries({ queryKey: dossierListKeys.all });
  }

  function onMove(key: string, start: Date, end: Date) {
    const row = rows.find((r) => r.key === key);
    if (!row) return;
    const dates = { start: startOfDay(start), end: lastDayOf(end) };
    const { item } = row;
    if (item.kind === 'project') {
      void save(item, config.project, projects.data, dates).then(afterSave);
      return;
    }
    const project = projectItems.items.find((p) => p.dossier.id === item.projectId);
    const taskBody = item.projectId === null ? undefined : tasksOf.get(item.projectId);
    const projectDates = project ? projectDatesFor(dates, project) : null;
    if (!project || !projectDates) {
      void save(item, config.task, taskBody, dates).then(afterSave);
      return;
    }
    const day = new Intl.DateTimeFormat(locale, { dateStyle: 'medium' });
    modals.openConfirmModal({
      title: t('linked_views.gantt.edit_project_date'),
      children: (
        <Text size="sm">
          {t('linked_views.gantt.edit_project_date_text', {
            project: project.dossier.summary,
            start: day.format(projectDates.start),
            end: day.format(projectDates.end),
          })}
        </Text>
      ),
      labels: { confirm: t('linked_views.gantt.continue'), cancel: t('common.cancel') },
      confirmProps: { 'data-testid': 'gantt-project-date-confirm' } as Record<string, string>,
      onConfirm: async () => {
        const taskSaved = await save(item, config.task, taskBody, dates);
        const projectSaved = taskSaved && (await save(project, config.project, projects.data, projectDates));
        await afterSave(taskSaved && projectSaved);
      },
      onCancel: () => setRedraws((n) => n + 1),
    });
  }

  function onToggle(key: string, expand: boolean) {
    const id = Number(key.slice(1));
    if (!key.startsWith('p') || !Number.isInteger(id)) return;
    setOpen((current) => {
      const next = new Set(current);
      if (expand) next.add(id);
      else next.delete(id);
      return next;
    });
  }

  if (entity.isLoading || projects.isLoading)
    return <Loader size="sm" aria-label={t('linked_views.loading')} />;
  if (entity.data && !configured)
    return (
      <Alert color="yellow" data-testid="gantt-not-configured">
        {t('linked_views.gantt.not_configured')}
      </Alert>
    );
  if (entity.isError || projects.isError)
    return <Alert color="red">{t('common.something_went_wrong')}</Alert>;

  const allIds = projectItems.items.map((p) => p.dossier.id);
  const anyOpen = open.size > 0;
  return (
    <Stack gap="sm" data-testid="gantt-view">
      <Group justify="space-between">
        <SegmentedControl
          aria-label={t('linked_views.gantt.zoom')}
          value={zoom}
          onChange={(value) => setZoom(value as GanttZoom)}
          data={GANTT_ZOOMS.map((value) => ({
            value,
            label: t(`linked_views.gantt.zoom_${value.toLowerCase()}`),
          }))}
          data-testid="gantt-zoom"
        />
        <Button
          variant="default"
          size="xs"
          onClick={() => setOpen(anyOpen ? new Set() : new Set(allIds))}
          disabled={allIds.length === 0}
          data-testid="gantt-collapse-all"
        >
          {anyOpen ? t('linked_views.gantt.collapse_all') : t('linked_views.gantt.expand_all')}
        </Button>
      </Group>
      {refusal && (
        <Alert color="red" withCloseButton onClose={() => setRefusal(null)} data-testid="gantt-refusal">
          {refusal}
        </Alert>
      )}
      {seesWarnings && projectItems.undated.length > 0 && (
        <Alert color="yellow" title={t('linked_views.gantt.undated_title')} data-testid="gantt-undated">
          <List size="sm">
            {projectItems.undated.map((d) => (
              <List.Item key={d.id}>{d.summary}</List.Item>
            ))}
          </List>
        </Alert>
      )}
      {projectItems.items.length === 0 ? (
        <Text c="dimmed">{t('linked_views.no_items')}</Text>
      ) : (
        <Suspense fallback={<Loader size="sm" aria-label={t('linked_views.loading')} />}>
          <GanttChart rows={rows} zoom={zoom} onMove={onMove} onToggle={onToggle} />
        </Suspense>
      )}
    </Stack>
  );
}
