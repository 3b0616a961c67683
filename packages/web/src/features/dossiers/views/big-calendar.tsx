import 'react-big-calendar/lib/css/react-big-calendar.css';
import 'react-big-calendar/lib/addons/dragAndDrop/styles.css';
import './calendar-view.css';
import 'dayjs/locale/de';
import 'dayjs/locale/es';
import 'dayjs/locale/fr';
import 'dayjs/locale/nl';
import 'dayjs/locale/ru';
import dayjs from 'dayjs';
import type { ComponentProps } from 'react';
import { Calendar, dayjsLocalizer } from 'react-big-calendar';
import dragAndDrop from 'react-big-calendar/lib/addons/dragAndDrop';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

// The app's react-big-calendar, shared by the calendar view of a dossier list (calendar-view.tsx) and
// the calendar template of a dashboard list block: dayjs dates, the user's language, the catalogues'
// texts, and an event that opens its dossier.

export const localizer = dayjsLocalizer(dayjs);

export interface CalendarEvent {
  /** the dossier's id */
  id: number;
  title: string;
  start: Date;
  end: Date;
  allDay: boolean;
}

// The addon is CommonJS only: depending on the bundler's interop its default export arrives wrapped once more.
const withDragAndDrop = ((dragAndDrop as unknown as { default?: typeof dragAndDrop }).default ??
  dragAndDrop) as typeof dragAndDrop;
const DnDCalendar = withDragAndDrop<CalendarEvent>(Calendar);

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * An event from stored values: a day without time is an all-day event whose end (an inclusive day)
 * becomes the calendar's exclusive end; an end before the start is the start.
 */
export function calendarEvent(id: number, title: string, start: string, end: string | null): CalendarEvent {
  const allDay = DAY.test(start);
  const from = dayjs(start).toDate();
  let to = end ? dayjs(end).toDate() : from;
  if (allDay)
    to = dayjs(end && DAY.test(end) ? end : start)
      .add(1, 'day')
      .toDate();
  if (to < from) to = from;
  return { id, title, start: from, end: to, allDay };
}

type Props = Omit<ComponentProps<typeof DnDCalendar>, 'localizer'>;

export function DossierCalendar(props: Props) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  return (
    <DnDCalendar
      localizer={localizer}
      culture={i18n.language}
      onDoubleClickEvent={(event) => navigate(`/contentdossier/${event.id}`)}
      onSelectEvent={(event) => navigate(`/contentdossier/${event.id}`)}
      popup
      messages={{
        today: t('embedded.calendar.today'),
        previous: t('embedded.calendar.previous'),
        next: t('embedded.calendar.next'),
        month: t('embedded.calendar.month'),
        week: t('embedded.calendar.week'),
        work_week: t('embedded.calendar.work_week'),
        day: t('embedded.calendar.day'),
        date: t('embedded.calendar.date'),
        time: t('embedded.calendar.time'),
        event: t('embedded.calendar.event'),
        allDay: t('embedded.calendar.all_day'),
        noEventsInRange: t('embedded.calendar.empty'),
        showMore: (count: number) => t('embedded.calendar.more', { count }),
      }}
      {...props}
    />
  );
}
