import { ActionIcon, Alert, Button, Group, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFieldLocale } from '../../../fields/shared';
import { useEnvironment } from '../../environments/environment-store';
import { useEnvironmentUsers } from '../use-environment-users';
import { addDays, HOURS_PAGE_LIMIT, hourColumns, hourRows, weekStart, ymd } from './hours-data';
import type { LinkedViewProps } from './linked-view';
import { useViewList } from './view-data';

/**
 * The hour registration view of an embedded list (spec doc 2 sections 2 and 6): the linked
 * registrations of one week, summed per person and weekday, with the week's totals. Only with the
 * environment's hour registration module (the server refuses the list call without it).
 */
export function HourRegistrationView(props: LinkedViewProps) {
  const { t } = useTranslation();
  const locale = useFieldLocale();
  const allowed = useEnvironment()?.abilities?.canUseHourRegistration ?? false;
  const [monday, setMonday] = useState(() => weekStart(new Date()));
  const sunday = addDays(monday, 6);
  // the first page tells which items are the day, the hours and the person
  const probe = useViewList(
    allowed
      ? {
          defDossier: props.entityId,
          embedded: props.parentDossierId,
          linkId: props.linkId,
          view: 'hourregistration',
          limit: 1,
        }
      : null,
  );
  const columns = hourColumns(probe.data?.results.items ?? []);
  const dateItem = columns.date;
  const week = useViewList(
    allowed && dateItem && columns.hours
      ? {
          defDossier: props.entityId,
          embedded: props.parentDossierId,
          linkId: props.linkId,
          view: 'hourregistration',
          limit: HOURS_PAGE_LIMIT,
          [String(dateItem.id)]: ymd(monday),
          [`${dateItem.id}_type`]: 'between',
          [`${dateItem.id}_end`]: ymd(sunday),
        }
      : null,
  );
  const personIds = (week.data?.results.dossiers ?? []).flatMap((d) => {
    const value = columns.person
      ? week.data?.results.contents[String(d.id)]?.[String(columns.person.id)]
      : null;
    return (Array.isArray(value) ? value : [value])
      .map(Number)
      .filter((id) => Number.isInteger(id) && id > 0);
  });
  const { users } = useEnvironmentUsers(personIds);
  const nameOf = (id: number) => users.find((u) => u.id === id)?.name ?? `#${id}`;

  if (!allowed)
    return (
      <Alert color="yellow" data-testid="hours-module-off">
        {t('linked_views.hours.module_off')}
      </Alert>
    );
  if (probe.isLoading || week.isLoading) return <Loader size="sm" aria-label={t('linked_views.loading')} />;
  if (probe.isError || week.isError) return <Alert color="red">{t('common.something_went_wrong')}</Alert>;
  if (!dateItem || !columns.hours)
    return (
      <Alert color="yellow" data-testid="hours-not-configured">
        {t('linked_views.hours.not_configured')}
      </Alert>
    );

  const rows = hourRows(week.data, columns, monday, nameOf);
  const days = Array.from({ length: 7 }, (_, i) => addDays(monday, i));
  const dayName = new Intl.DateTimeFormat(locale, { weekday: 'short', day: 'numeric', month: 'numeric' });
  const range = new Intl.DateTimeFormat(locale, { dateStyle: 'medium' });
  const hours = new Intl.NumberFormat(locale, { maximumFractionDigits: 2 });
  const dayTotals = days.map((_, i) => rows.reduce((sum, row) => sum + row.days[i], 0));
  const total = dayTotals.reduce((a, b) => a + b, 0);

  return (
    <Stack gap="sm" data-testid="hours-view">
      <Group justify="space-between">
        <Group gap="xs">
          <ActionIcon
            variant="default"
            onClick={() => setMonday(addDays(monday, -7))}
            aria-label={t('linked_views.hours.previous_week')}
          >
            <IconChevronLeft size={16} aria-hidden />
          </ActionIcon>
          <Title order={3} size="h5" data-testid="hours-week">
            {t('linked_views.hours.week', { from: range.format(monday), to: range.format(sunday) })}
          </Title>
          <ActionIcon
            variant="default"
            onClick={() => setMonday(addDays(monday, 7))}
            aria-label={t('linked_views.hours.next_week')}
          >
            <IconChevronRight size={16} aria-hidden />
          </ActionIcon>
        </Group>
        <Button variant="default" size="xs" onClick={() => setMonday(weekStart(new Date()))}>
          {t('linked_views.hours.this_week')}
        </Button>
      </Group>
      {rows.length === 0 ? (
        <Text c="dimmed">{t('linked_views.no_items')}</Text>
      ) : (
        <Table.ScrollContainer minWidth={600}>
          <Table striped withTableBorder>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('linked_views.hours.person')}</Table.Th>
                {days.map((day) => (
                  <Table.Th key={day.getTime()} ta="right">
                    {dayName.format(day)}
                  </Table.Th>
                ))}
                <Table.Th ta="right">{t('linked_views.hours.total')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((row) => (
                <Table.Tr key={row.key} data-testid={`hours-row-${row.key}`}>
                  <Table.Td>{row.name}</Table.Td>
                  {row.days.map((value, i) => (
                    <Table.Td key={days[i].getTime()} ta="right">
                      {value ? hours.format(value) : ''}
                    </Table.Td>
                  ))}
                  <Table.Td ta="right" fw={600}>
                    {hours.format(row.total)}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
            <Table.Tfoot>
              <Table.Tr>
                <Table.Th>{t('linked_views.hours.total')}</Table.Th>
                {dayTotals.map((value, i) => (
                  <Table.Th key={days[i].getTime()} ta="right">
                    {value ? hours.format(value) : ''}
                  </Table.Th>
                ))}
                <Table.Th ta="right" data-testid="hours-total">
                  {hours.format(total)}
                </Table.Th>
              </Table.Tr>
            </Table.Tfoot>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}
