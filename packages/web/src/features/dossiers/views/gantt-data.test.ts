import type { DisplayItem, Dossier, DossierListBody } from '@dossierbase/core';
import { describe, expect, it } from 'vitest';
import {
  chartEnd,
  drawnProgress,
  ganttConfig,
  ganttItems,
  ganttLabel,
  isOverProgress,
  lastDayOf,
  movedDates,
  projectDatesFor,
  storedDay,
} from './gantt-data';
import { hourColumns, hourRows, hoursOf, weekStart } from './hours-data';
import { timelineEntries } from './timeline-data';

const dossier = (id: number, summary = `D${id}`) =>
  ({ id, summary, created_by: { id: 9, username: 'ann' } }) as unknown as Dossier;
const item = (id: number, fieldId: number, type: string) =>
  ({
    id,
    view: 'list',
    def_dossier_def_field: { id: fieldId, def_field: { id: fieldId * 10, type, settings: {} } },
  }) as unknown as DisplayItem;
const answer = (items: DisplayItem[], rows: [Dossier, Record<string, unknown>][]): DossierListBody => ({
  results: {
    dossiers: rows.map(([d]) => d),
    contents: Object.fromEntries(rows.map(([d, c]) => [String(d.id), c])),
    items,
    aggregations: [],
  },
  pager: { current: 0, pages: 1, items: rows.length, limit: 50 },
});
const day = (text: string) => new Date(`${text}T00:00:00`);

describe('gantt data', () => {
  it('reads the settings, ids as numbers or texts; moves write the update fields when set', () => {
    const config = ganttConfig({
      gantt_task_link: '4',
      gantt_proj_start_date: 11,
      gantt_proj_end_date: '12',
      gantt_proj_update_end_date: 13,
      gantt_task_update_start_date: 21,
      gantt_task_update_end_date: 22,
      gantt_task_resource: 23,
    });
    expect(config.taskLink).toBe(4);
    expect(config.project).toMatchObject({ start: 11, end: 12, updateStart: 11, updateEnd: 13 });
    expect(config.task).toMatchObject({ start: 21, end: 22, updateStart: 21, resource: 23 });
    expect(ganttConfig({}).project.start).toBeNull();
  });

  it('caps progress at 100, red above, and cuts labels at 15 characters', () => {
    expect(drawnProgress(140)).toBe(100);
    expect(drawnProgress(-5)).toBe(0);
    expect(isOverProgress(100)).toBe(false);
    expect(isOverProgress(100.5)).toBe(true);
    expect(ganttLabel('Foundations and walls')).toBe('Foundations and…');
    expect(ganttLabel('Short')).toBe('Short');
  });

  it('draws dated dossiers and lists those lacking a start or an end', () => {
    const items = [item(1, 11, 'date'), item(2, 12, 'date'), item(3, 13, 'amount'), item(4, 14, 'list')];
    const body = answer(items, [
      [dossier(7), { 1: '2026-03-01', 2: '2026-03-31', 3: 140, 4: [5] }],
      [dossier(8), { 1: '2026-03-01', 2: null }],
    ]);
    const result = ganttItems(
      body,
      'project',
      ganttConfig({
        gantt_proj_start_date: 11,
        gantt_proj_end_date: 12,
        gantt_proj_progress: 13,
        gantt_proj_tags: 14,
      }).project,
      {
        projectId: null,
        optionsOf: () => [
          { id: 5, color: '#ff0000', translations: [{ culture: 'en_GB', text: 'Urgent' }] } as never,
        ],
        locale: 'en-GB',
      },
    );
    expect(result.undated.map((d) => d.id)).toEqual([8]);
    expect(result.items).toHaveLength(1);
    expect(result.items[0]).toMatchObject({
      start: day('2026-03-01'),
      end: day('2026-03-31'),
      progress: 140,
      tags: [{ id: 5, name: 'Urgent', colour: '#ff0000' }],
    });
  });

  it('ends bars after their last day and stores days as the field keeps them', () => {
    expect(chartEnd(day('2026-03-31'))).toEqual(day('2026-04-01'));
    expect(lastDayOf(day('2026-04-01'))).toEqual(day('2026-03-31'));
    expect(storedDay(day('2026-03-05'), false)).toBe('2026-03-05');
    expect(storedDay(day('2026-03-05'), true)).toBe(day('2026-03-05').toISOString());
  });

  it('asks to move the project only when the task leaves its dates', () => {
    const project = { start: day('2026-03-01'), end: day('2026-03-31') };
    expect(projectDatesFor({ start: day('2026-03-02'), end: day('2026-03-31') }, project)).toBeNull();
    expect(projectDatesFor({ start: day('2026-03-25'), end: day('2026-04-05') }, project)).toEqual({
      start: day('2026-03-01'),
      end: day('2026-04-05'),
    });
    expect(projectDatesFor({ start: day('2026-02-20'), end: day('2026-03-02') }, project)).toEqual({
      start: day('2026-02-20'),
      end: day('2026-03-31'),
    });
  });

  it("takes a drag's dates as the bar's old dates moved by its days, a resize moving one edge", () => {
    const bar = { start: day('2026-03-02'), end: day('2026-03-11') };
    // a move: both dates, 25 days on (across the change to summer time on 29 March)
    expect(movedDates(bar, 25, bar)).toEqual({ start: day('2026-03-27'), end: day('2026-04-05') });
    // the left edge 3 days back, the right edge 2 days on
    expect(movedDates({ start: bar.start }, -3, bar)).toEqual({ start: day('2026-02-27'), end: bar.end });
    expect(movedDates({ end: bar.end }, 2, bar)).toEqual({ start: bar.start, end: day('2026-03-13') });
    // new dates without a drag; a new start alone keeps the bar's length
    expect(movedDates({ start: day('2026-03-05') }, undefined, bar)).toEqual({
      start: day('2026-03-05'),
      end: day('2026-03-14'),
    });
    // the progress alone moves nothing
    expect(movedDates({}, undefined, bar)).toBeNull();
  });
});

describe('timeline and hours', () => {
  it('orders the timeline by date, undated last', () => {
    const body = answer(
      [item(1, 11, 'date')],
      [
        [dossier(1), { 1: '2026-05-01' }],
        [dossier(2), { 1: null }],
        [dossier(3), { 1: '2026-01-01' }],
      ],
    );
    expect(timelineEntries(body, 11).map((e) => e.dossier.id)).toEqual([3, 1, 2]);
  });

  it('sums a week’s hours per person and weekday', () => {
    const items = [item(1, 11, 'date'), item(2, 12, 'amount'), item(3, 13, 'user')];
    const columns = hourColumns(items);
    expect(columns.date?.id).toBe(1);
    expect(columns.hours?.id).toBe(2);
    expect(columns.person?.id).toBe(3);
    const monday = weekStart(day('2026-03-04'));
    expect(monday).toEqual(day('2026-03-02'));
    const body = answer(items, [
      [dossier(1), { 1: '2026-03-02', 2: 3, 3: [5] }],
      [dossier(2), { 1: '2026-03-02', 2: 1.5, 3: [5] }],
      [dossier(3), { 1: '2026-03-08', 2: 2, 3: [6] }],
      [dossier(4), { 1: '2026-03-09', 2: 8, 3: [5] }],
    ]);
    const rows = hourRows(body, columns, monday, (id) => (id === 5 ? 'Ann' : 'Bob'));
    expect(rows.map((r) => [r.name, r.days, r.total])).toEqual([
      ['Ann', [4.5, 0, 0, 0, 0, 0, 0], 4.5],
      ['Bob', [0, 0, 0, 0, 0, 0, 2], 2],
    ]);
    expect(hoursOf('1:30')).toBe(1.5);
  });
});
