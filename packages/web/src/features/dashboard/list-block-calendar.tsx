import type { DisplayItem, Dossier } from '@dossierbase/core';
import { Anchor, Box, Text } from '@mantine/core';
import { createContext, useContext, useMemo, useState } from 'react';
import { type EventProps, Views } from 'react-big-calendar';
import { Link } from 'react-router';
import { type CalendarEvent, calendarEvent, DossierCalendar } from '../dossiers/views/big-calendar';
import type { ViewProps } from './dashboard-list-block';

// The calendar template of a dossier list block (spec document 2: the calendar shows three consecutive
// days): the app's react-big-calendar (the one of the calendar view) in its agenda of three days, a
// table of each day's events (its time grid fails the accessibility rules: headers outside rows, a
// scroll region without focus). Each dossier lasts from its start slot (without one: its creation) to
// its end slot, named by the name slot (or its summary) as a link to it, with its location.

const DAYS = 3;
const DAY_OR_TIME = /^\d{4}-\d{2}-\d{2}/;

/** The first date or date-time text of a stored value, or null. */
function dateText(value: unknown): string | null {
  const text = Array.isArray(value) ? value[0] : value;
  return typeof text === 'string' && DAY_OR_TIME.test(text) ? text : null;
}

/** What an event shows of its dossier: the name and location slots, drawn as the list draws them. */
interface Slots {
  byId: ReadonlyMap<number, Dossier>;
  nameItem: DisplayItem | undefined;
  locationItem: DisplayItem | undefined;
  value: ViewProps['value'];
}
const SlotsContext = createContext<Slots | null>(null);

function AgendaEvent({ event }: EventProps<CalendarEvent>) {
  const slots = useContext(SlotsContext);
  const dossier = slots?.byId.get(event.id);
  return (
    <Box data-testid="block-calendar-event">
      <Anchor component={Link} to={`/contentdossier/${event.id}`} size="sm" fw={600}>
        {dossier && slots?.nameItem ? slots.value(dossier, slots.nameItem) : event.title}
      </Anchor>
      {dossier && slots?.locationItem && (
        <Text size="xs" component="div">
          {slots.value(dossier, slots.locationItem)}
        </Text>
      )}
    </Box>
  );
}

// one object for every render: a new one would remount each event
const COMPONENTS = { agenda: { event: AgendaEvent } };

export default function ListBlockCalendar(view: ViewProps) {
  const [date, setDate] = useState(() => new Date());
  const options = (view.block.settings.templateOptions ?? {}) as Record<string, unknown>;
  const slot = (name: string): DisplayItem | undefined =>
    view.items.find((item) => item.id === Number(options[name]));
  const startItem = slot('start');
  const endItem = slot('end');
  const nameItem = slot('name');
  const locationItem = slot('location');
  const { dossiers, contents, value } = view;
  const events = useMemo(() => {
    const raw = (dossier: Dossier, item: DisplayItem | undefined) =>
      item ? contents[String(dossier.id)]?.[String(item.id)] : undefined;
    return dossiers.flatMap((dossier) => {
      const start = startItem ? dateText(raw(dossier, startItem)) : dossier.created_at;
      if (!start) return [];
      const end = dateText(raw(dossier, endItem));
      return [calendarEvent(dossier.id, dossier.summary || `#${dossier.id}`, start, end)];
    });
  }, [dossiers, contents, startItem, endItem]);
  const slots = useMemo(
    () => ({ byId: new Map(dossiers.map((d) => [d.id, d])), nameItem, locationItem, value }),
    [dossiers, nameItem, locationItem, value],
  );
  return (
    <SlotsContext.Provider value={slots}>
      <Box h={Math.max(view.height - 40, 320)} data-testid="block-calendar">
        <DossierCalendar
          events={events}
          views={[Views.AGENDA]}
          view={Views.AGENDA}
          onView={() => undefined}
          length={DAYS}
          date={date}
          onNavigate={setDate}
          components={COMPONENTS}
          draggableAccessor={() => false}
          resizableAccessor={() => false}
        />
      </Box>
    </SlotsContext.Provider>
  );
}
