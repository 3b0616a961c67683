import type { CalendarAnswer } from '@dossierbase/core';
import { Alert, Box, Loader, Stack } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useMemo, useState } from 'react';
import { type View, Views } from 'react-big-calendar';
import type { EventInteractionArgs } from 'react-big-calendar/lib/addons/dragAndDrop';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../api/client';
import { errorMessage, notifyFailure, notifySuccess } from '../../../api/errors';
import { dossierListKeys } from '../list/list-api';
import { type CalendarEvent, calendarEvent, DossierCalendar } from './big-calendar';
import type { LinkedViewProps } from './linked-view';
import { moveEvent, useCalendarRange } from './views-api';

// The calendar view (spec doc 3 sections 4, 5 and 7): month, week, work week and day, at least 600
// px high, the entity's calendar_default first. Events come from a date field (one day each) or a
// date list field with an end. Dragging or resizing an event writes its start (and end) through
// PATCH /contentdossier/{id}/calendar when calendar_edit_start (and _end) are set.

const ymd = (date: Date) => dayjs(date).format('YYYY-MM-DD');

/** The days a view shows around a date: [start, end) as YYYY-MM-DD. */
export function visibleRange(view: View, date: Date): { start: string; end: string } {
  const d = dayjs(date);
  if (view === Views.MONTH)
    return {
      start: ymd(d.startOf('month').startOf('week').toDate()),
      end: ymd(d.endOf('month').endOf('week').add(1, 'day').toDate()),
    };
  if (view === Views.DAY) return { start: ymd(d.toDate()), end: ymd(d.add(1, 'day').toDate()) };
  // week and work week: the whole week (the work week is within it)
  return { start: ymd(d.startOf('week').toDate()), end: ymd(d.startOf('week').add(7, 'day').toDate()) };
}

/** Server events as calendar events (calendarEvent: a day without time is an all-day event). */
export function toEvents(answer: CalendarAnswer): CalendarEvent[] {
  const names = new Map(
    answer.results.dossiers.map((d: { id: number; summary: string }) => [d.id, d.summary]),
  );
  return answer.events.map((event) =>
    calendarEvent(event.id, names.get(event.id) || `#${event.id}`, event.start, event.end ?? null),
  );
}

export function CalendarView(props: LinkedViewProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [view, setView] = useState<View | null>(null);
  const [date, setDate] = useState(() => new Date());
  // the first answer names the entity's default view; until then a month is asked for
  const shownView = view ?? Views.MONTH;
  const range = visibleRange(
    shownView === Views.WEEK || shownView === Views.WORK_WEEK ? Views.MONTH : shownView,
    date,
  );
  const calendar = useCalendarRange(props, range.start, range.end);
  const answer = calendar.data;
  const events = useMemo(() => (answer ? toEvents(answer) : []), [answer]);
  const currentView = view ?? (answer?.default_view === 'week' ? Views.WEEK : Views.MONTH);

  if (calendar.isError && !answer) return <Alert color="red">{errorMessage(calendar.error, t)}</Alert>;
  if (!answer) return <Loader size="sm" />;
  if (answer.missing)
    return (
      <Alert color="yellow" data-testid="calendar-warning">
        {t(`embedded.warnings.${answer.missing}`)}
      </Alert>
    );

  const editable = answer.editable.start || answer.editable.end;
  const move = async ({ event, start, end }: EventInteractionArgs<CalendarEvent>, resized: boolean) => {
    if (!editable || (resized && !answer.editable.end)) {
      notifyFailure(t('embedded.calendar.not_editable'));
      return;
    }
    const from = new Date(start);
    let to = new Date(end);
    const allDay = event.allDay;
    // all-day ends are exclusive on the calendar, inclusive in the dossier
    if (allDay) to = dayjs(to).subtract(1, 'day').toDate();
    try {
      await moveEvent(
        event.id,
        allDay ? ymd(from) : from.toISOString(),
        answer.editable.end ? (allDay ? ymd(to) : to.toISOString()) : null,
      );
      notifySuccess(t('dossier_errors.success_edit'));
    } catch (error) {
      notifyFailure(isApiError(error, 403) ? t('dossier_errors.permission_edit') : errorMessage(error, t));
    } finally {
      await queryClient.invalidateQueries({ queryKey: dossierListKeys.all });
    }
  };

  return (
    <Stack gap="xs" data-testid="calendar-view">
      <Box mih={600} h={600} data-testid="calendar" style={{ opacity: calendar.isPlaceholderData ? 0.7 : 1 }}>
        <DossierCalendar
          events={events}
          view={currentView}
          views={[Views.MONTH, Views.WEEK, Views.WORK_WEEK, Views.DAY]}
          onView={setView}
          date={date}
          onNavigate={setDate}
          style={{ minHeight: 600 }}
          draggableAccessor={() => editable}
          resizableAccessor={() => answer.editable.end}
          onEventDrop={(args) => void move(args, false)}
          onEventResize={(args) => void move(args, true)}
        />
      </Box>
    </Stack>
  );
}
