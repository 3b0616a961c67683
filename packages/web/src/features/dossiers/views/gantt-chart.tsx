import '@svar-ui/react-gantt/all.css';
import './gantt.css';
import type { GanttZoom } from '@dossierbase/core';
import { Gantt, type IApi, type IColumnConfig, type ITask, Willow } from '@svar-ui/react-gantt';
import { useCallback, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useFieldLocale } from '../../../fields/shared';
import { chartEnd, drawnProgress, type GanttItem, ganttLabel, isOverProgress } from './gantt-data';

// The chart of the gantt view, drawn by SVAR React Gantt (MIT, React 19). It only draws: what a
// move, a resize or an expansion does is decided by the view (gantt-view.tsx), which gets each
// gesture as a callback while the chart's own update is cancelled; the view then redraws from the
// server's answer.

export interface ChartRow {
  key: string;
  item: GanttItem;
  /** resource names, for the grid */
  resource: string;
  /** a project: expanded, and whether its tasks are known to exist (or not read yet) */
  open?: boolean;
  hasTasks?: boolean;
}

interface GanttChartProps {
  rows: ChartRow[];
  zoom: GanttZoom;
  onMove: (key: string, start: Date, end: Date) => void;
  onToggle: (key: string, open: boolean) => void;
}

const CELL_WIDTH: Record<GanttZoom, number> = { Day: 36, Week: 14, Month: 4 };

export default function GanttChart({ rows, zoom, onMove, onToggle }: GanttChartProps) {
  const { t } = useTranslation();
  const locale = useFieldLocale();
  // the callbacks change with the view's state; the chart's intercepts are set once
  const handlers = useRef({ onMove, onToggle });
  handlers.current = { onMove, onToggle };

  const tasks = useMemo<ITask[]>(
    () =>
      rows.map(({ key, item, open, hasTasks, resource }) => ({
        id: key,
        text: item.dossier.summary,
        start: item.start,
        end: chartEnd(item.end),
        progress: drawnProgress(item.progress),
        // 'summary' would have the chart derive a project's dates from its tasks: a project keeps its own
        type: item.kind === 'project' ? 'project' : 'task',
        parent: item.kind === 'task' ? `p${item.projectId}` : 0,
        open: item.kind === 'project' ? Boolean(open) : undefined,
        lazy: item.kind === 'project' && hasTasks !== false && !open,
        over: isOverProgress(item.progress),
        tags: item.tags,
        resource,
      })),
    [rows],
  );

  const scales = useMemo(() => {
    const format = (options: Intl.DateTimeFormatOptions) => {
      const formatter = new Intl.DateTimeFormat(locale, options);
      return (date: Date) => formatter.format(date);
    };
    if (zoom === 'Day')
      return [
        { unit: 'month', step: 1, format: format({ month: 'long', year: 'numeric' }) },
        { unit: 'day', step: 1, format: format({ day: 'numeric' }) },
      ];
    if (zoom === 'Week')
      return [
        { unit: 'month', step: 1, format: format({ month: 'long', year: 'numeric' }) },
        { unit: 'week', step: 1, format: format({ day: 'numeric', month: 'short' }) },
      ];
    return [
      { unit: 'year', step: 1, format: format({ year: 'numeric' }) },
      { unit: 'month', step: 1, format: format({ month: 'short' }) },
    ];
  }, [zoom, locale]);

  const columns = useMemo<IColumnConfig[]>(() => {
    const day = new Intl.DateTimeFormat(locale, { dateStyle: 'short' });
    return [
      {
        id: 'text',
        header: t('linked_views.gantt.name'),
        flexgrow: 1,
        // the task list's labels are cut at 15 characters (spec doc 3 section 9)
        cell: NameCell,
      },
      {
        id: 'start',
        header: t('linked_views.gantt.start'),
        width: 90,
        template: (value: unknown) => (value instanceof Date ? day.format(value) : ''),
      },
      {
        id: 'end',
        header: t('linked_views.gantt.end'),
        width: 90,
        // the chart's end is the next day's start; the list shows the last day
        template: (value: unknown) =>
          value instanceof Date ? day.format(new Date(value.getTime() - 1)) : '',
      },
      { id: 'resource', header: t('linked_views.gantt.resource'), width: 110 },
    ];
  }, [t, locale]);

  const init = useCallback((api: IApi) => {
    api.intercept('update-task', (event) => {
      if (event.inProgress) return true;
      const { start, end } = event.task;
      if (start instanceof Date && end instanceof Date) handlers.current.onMove(String(event.id), start, end);
      return false;
    });
    api.intercept('open-task', (event) => {
      handlers.current.onToggle(String(event.id), event.mode);
      return false;
    });
    // the grid's inline editor and the task form are not offered: dates change by dragging
    api.intercept('show-editor', () => false);
    api.intercept('add-task', () => false);
    api.intercept('delete-task', () => false);
    api.intercept('add-link', () => false);
  }, []);

  return (
    <Willow fonts={false}>
      <div style={{ height: 520 }} data-testid="gantt-chart" className="gantt-chart">
        <Gantt
          tasks={tasks}
          links={[]}
          scales={scales}
          columns={columns}
          cellWidth={CELL_WIDTH[zoom]}
          lengthUnit="day"
          taskTypes={TASK_TYPES}
          taskTemplate={TaskBar}
          init={init}
        />
      </div>
    </Willow>
  );
}

/** The task list's name: cut at 15 characters, the whole name on hover. */
function NameCell({ row }: { row: ITask }) {
  const text = String(row.text ?? '');
  return (
    <span title={text} data-testid={`gantt-name-${row.id}`}>
      {ganttLabel(text)}
    </span>
  );
}

const TASK_TYPES = [
  { id: 'task', label: 'Task' },
  { id: 'project', label: 'Project' },
];

/** A bar's text and tags; above 100% the progress shows red (spec doc 3 section 5). */
function TaskBar({ data }: { data: ITask }) {
  const tags = (data.tags ?? []) as GanttItem['tags'];
  return (
    <div
      className={`wx-content gantt-bar${data.over ? ' gantt-bar-over' : ''}`}
      data-testid={`gantt-bar-${data.id}`}
      data-over={data.over ? 'true' : undefined}
    >
      {data.over && <span className="gantt-over" aria-hidden />}
      <span className="gantt-bar-text">{data.text}</span>
      {tags.map((tag) => (
        <span
          key={tag.id}
          className="gantt-tag"
          style={{ borderColor: tag.colour ?? undefined }}
          title={tag.name}
        >
          {tag.name}
        </span>
      ))}
    </div>
  );
}
