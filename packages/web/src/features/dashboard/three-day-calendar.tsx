import type { DisplayItem, Dossier } from '@dossierbase/core';
import { ActionIcon, Anchor, Box, Group, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { toIntlLocale } from '../../fields/helpers';
import { useFieldLocale } from '../../fields/shared';
import type { ViewProps } from './dashboard-list-block';

// The calendar template of a dossier list block (spec document 2 section 9: the calendar shows three
// consecutive days): each dossier on the days from its start to its end, named by the name slot (or
// its summary), with its location; back and forward by a day.

const DAYS = 3;

/** The day a slot's value falls on (date or date-time text), or null. */
function dayOf(value: unknown): dayjs.Dayjs | null {
  const text = Array.isArray(value) ? value[0] : value;
  if (typeof text !== 'string' || !/^\d{4}-\d{2}-\d{2}/.test(text)) return null;
  const day = dayjs(text);
  return day.isValid() ? day : null;
}

export function ThreeDayCalendar(view: ViewProps) {
  const { t } = useTranslation();
  const locale = useFieldLocale();
  const [first, setFirst] = useState(() => dayjs().startOf('day'));
  const options = (view.block.settings.templateOptions ?? {}) as Record<string, unknown>;
  const slot = (name: string): DisplayItem | undefined =>
    view.items.find((item) => item.id === Number(options[name]));
  const raw = (dossier: Dossier, item: DisplayItem | undefined) =>
    item ? view.contents[String(dossier.id)]?.[String(item.id)] : undefined;
  const startItem = slot('start');
  const endItem = slot('end');
  const events = view.dossiers.flatMap((dossier) => {
    const start = dayOf(raw(dossier, startItem)) ?? (startItem ? null : dayjs(dossier.created_at));
    if (!start) return [];
    const end = dayOf(raw(dossier, endItem)) ?? start;
    return [
      { dossier, start: start.startOf('day'), end: (end.isBefore(start) ? start : end).startOf('day') },
    ];
  });
  const days = Array.from({ length: DAYS }, (_, i) => first.add(i, 'day'));
  const dayName = (day: dayjs.Dayjs) =>
    day
      .toDate()
      .toLocaleDateString(toIntlLocale(locale), { weekday: 'short', day: 'numeric', month: 'short' });

  return (
    <Stack gap="xs" data-testid="block-calendar">
      <Group justify="space-between" wrap="nowrap">
        <ActionIcon
          variant="subtle"
          aria-label={t('dashboard_page.previous_day')}
          onClick={() => setFirst((d) => d.subtract(1, 'day'))}
          data-testid="block-calendar-previous"
        >
          <IconChevronLeft size={16} />
        </ActionIcon>
        <Text size="sm" fw={600}>
          {dayName(days[0])} – {dayName(days[DAYS - 1])}
        </Text>
        <ActionIcon
          variant="subtle"
          aria-label={t('dashboard_page.next_day')}
          onClick={() => setFirst((d) => d.add(1, 'day'))}
          data-testid="block-calendar-next"
        >
          <IconChevronRight size={16} />
        </ActionIcon>
      </Group>
      <SimpleGrid cols={DAYS} spacing="xs">
        {days.map((day) => {
          const today = events.filter((e) => !day.isBefore(e.start) && !day.isAfter(e.end));
          return (
            <Paper key={day.valueOf()} withBorder p={6} data-testid="block-calendar-day">
              <Text size="xs" fw={700} mb={4}>
                {dayName(day)}
              </Text>
              <Stack gap={4}>
                {today.map(({ dossier }) => (
                  <Box
                    key={dossier.id}
                    p={4}
                    bg="var(--mantine-primary-color-light)"
                    style={{ borderRadius: 4 }}
                    data-testid="block-calendar-event"
                  >
                    <Anchor component={Link} to={`/contentdossier/${dossier.id}`} size="sm" fw={600}>
                      {slot('name') ? view.value(dossier, slot('name')) : dossier.summary || `#${dossier.id}`}
                    </Anchor>
                    {slot('start') && (
                      <Box fz="xs">
                        {view.value(dossier, slot('start'))}
                        {slot('end') && <> – {view.value(dossier, slot('end'))}</>}
                      </Box>
                    )}
                    {slot('location') && <Box fz="xs">{view.value(dossier, slot('location'))}</Box>}
                  </Box>
                ))}
              </Stack>
            </Paper>
          );
        })}
      </SimpleGrid>
    </Stack>
  );
}
