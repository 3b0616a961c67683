import '@svar-ui/react-gantt/all.css';
import './gantt.css';
import type { GanttZoom } from '@dossierbase/core';
import { Gantt, type IApi, type IColumnConfig, type ITask, Willow } from '@svar-ui/react-gantt';
import { useCallback, useEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useFieldLocale } from '../../../fields/shared';
import {
  chartEnd,
  drawnProgress,
  type GanttItem,
  ganttLabel,
  isOverProgress,
  movedDates,
} from './gantt-data';

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

/** Width of the smallest scale unit: a day, a week (about 14 px a day) or a month (about 4 px a day). */
const CELL_WIDTH: Record<GanttZoom, number> = { Day: 36, Week: 100, Month: 120 };
/** The task list's days as the product shows dates (Dutch style, spec doc 3 section 9). */
const LIST_DAY = new Intl.DateTimeFormat('nl-NL', { day: '2-digit', month: '2-digit', year: 'numeric' });

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
    const day = LIST_DAY;
    return [
      {
        id: 'text',
        header: t('linked_views.gantt.name'),
        flexgrow: 1,
        // the task list's labels are cut at 15 characters (spec doc 3 section 9)
        cell: NameCell,
        resize: false,
      },
      {
        id: 'start',
        header: t('linked_views.gantt.start'),
        width: 90,
        resize: false,
        template: (value: unknown) => (value instanceof Date ? day.format(value) : ''),
      },
      {
        id: 'end',
        header: t('linked_views.gantt.end'),
        width: 90,
        resize: false,
        // the chart's end is the next day's start; the list shows the last day
        template: (value: unknown) =>
          value instanceof Date ? day.format(new Date(value.getTime() - 1)) : '',
      },
      { id: 'resource', header: t('linked_views.gantt.resource'), width: 110, resize: false },
    ];
  }, [t]);

  const init = useCallback((api: IApi) => {
    api.intercept('update-task', (event) => {
      const dates = movedDates(event.task, event.diff, api.getTask(event.id));
      // a drag draws itself while it lasts; the progress is not changed here
      if (event.inProgress) return dates !== null;
      if (dates) handlers.current.onMove(String(event.id), dates.start, dates.end);
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

  const container = useRef<HTMLDivElement>(null);
  useEffect(() => repairAria(container.current), []);

  return (
    // fonts: the theme's fonts and icons would come from the library's CDN; the app's own are used
    <Willow fonts={false}>
      <div ref={container} style={{ height: 520 }} data-testid="gantt-chart" className="gantt-chart">
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

/**
 * The task list marks its rows as a tree (aria-expanded) inside a role=grid and numbers them from 0
 * (aria-rowindex starts at 1): both fail WCAG's ARIA rules. The list is a tree grid, and the row
 * index, optional, is left out. Kept in step while the chart redraws its rows.
 */
function repairAria(root: HTMLElement | null): (() => void) | undefined {
  if (!root) return undefined;
  const repair = () => {
    for (const grid of root.querySelectorAll('[role="grid"]'))
      if (grid.querySelector('[role="row"][aria-expanded]')) grid.setAttribute('role', 'treegrid');
    for (const row of root.querySelectorAll('[aria-rowindex]')) row.removeAttribute('aria-rowindex');
  };
  repair();
  const observer = new MutationObserver(repair);
  observer.observe(root, {
    subtree: true,
    childList: true,
    attributes: true,
    attributeFilter: ['role', 'aria-rowindex'],
  });
  return () => observer.disconnect();
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
      className={`gantt-bar${data.over ? ' gantt-bar-over' : ''}`}
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
