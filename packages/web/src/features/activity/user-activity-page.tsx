import type { ActiveUser, ActivityAnswer } from '@dossierbase/core';
import { BarChart } from '@mantine/charts';
import '@mantine/charts/styles.css';
import {
  Anchor,
  Group,
  Loader,
  Paper,
  SegmentedControl,
  Stack,
  Table,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDate, formatDay } from '../../app/format';
import { AdminOnly } from '../admin/admin-guard';
import { memberName } from '../admin/members/member-labels';
import { useEnvironment } from '../environments/environment-store';
import { useActivity } from './activity-api';

// /useractivity: for the environment's admins, sign-ins and active members per day over the last 7,
// 30 or 90 days, and the most active members. The chart has its figures beside it as a table for
// screen readers.

const WINDOWS = ['7', '30', '90'] as const;

export function UserActivityPage() {
  return (
    <AdminOnly>
      <UserActivity />
    </AdminOnly>
  );
}

function UserActivity() {
  const { t } = useTranslation();
  const environment = useEnvironment()?.id ?? 0;
  const [days, setDays] = useState<(typeof WINDOWS)[number]>('30');
  const activity = useActivity(environment, Number(days));

  return (
    <Stack data-testid="user-activity-page">
      <Group justify="space-between" align="flex-end">
        <Title order={1} size="h3">
          {t('activity.title')}
        </Title>
        <SegmentedControl
          aria-label={t('activity.window')}
          value={days}
          onChange={(value) => setDays(value as (typeof WINDOWS)[number])}
          data={WINDOWS.map((value) => ({ value, label: t('activity.last_days', { count: Number(value) }) }))}
          data-testid="activity-window"
        />
      </Group>
      {activity.isPending || !activity.data ? <Loader /> : <ActivityFigures answer={activity.data} />}
    </Stack>
  );
}

function ActivityFigures({ answer }: { answer: ActivityAnswer }) {
  const { t } = useTranslation();
  const totalSignIns = answer.days.reduce((sum, day) => sum + day.sign_ins, 0);
  const busiest = answer.days.reduce((best, day) => (day.active_users > best.active_users ? day : best));
  const series = answer.days.map((day) => ({
    day: formatDay(day.day),
    sign_ins: day.sign_ins,
    active_users: day.active_users,
  }));

  return (
    <>
      <Group>
        <Figure label={t('activity.total_sign_ins')} value={String(totalSignIns)} testId="activity-total" />
        <Figure
          label={t('activity.busiest_day')}
          value={
            busiest.active_users > 0
              ? t('activity.busiest_value', { day: formatDay(busiest.day), count: busiest.active_users })
              : t('activity.no_activity')
          }
          testId="activity-busiest"
        />
      </Group>
      <Paper withBorder p="md">
        <Title order={2} size="h5" mb="sm" id="activity-per-day">
          {t('activity.per_day')}
        </Title>
        <div aria-hidden="true">
          <BarChart
            h={260}
            data={series}
            dataKey="day"
            withLegend
            series={[
              { name: 'sign_ins', label: t('activity.sign_ins'), color: 'blue.7' },
              { name: 'active_users', label: t('activity.active_users'), color: 'teal.8' },
            ]}
            barChartProps={{ accessibilityLayer: false }}
            yAxisProps={{ allowDecimals: false }}
            tickLine="y"
          />
        </div>
        <VisuallyHidden>
          <Table aria-labelledby="activity-per-day">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('activity.day')}</Table.Th>
                <Table.Th>{t('activity.sign_ins')}</Table.Th>
                <Table.Th>{t('activity.active_users')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {answer.days.map((day) => (
                <Table.Tr key={day.day}>
                  <Table.Td>{formatDay(day.day)}</Table.Td>
                  <Table.Td>{day.sign_ins}</Table.Td>
                  <Table.Td>{day.active_users}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </VisuallyHidden>
      </Paper>
      <Paper withBorder p="md">
        <Title order={2} size="h5" mb="sm">
          {t('activity.most_active')}
        </Title>
        {answer.most_active.length === 0 ? (
          <Text c="dimmed">{t('activity.no_activity')}</Text>
        ) : (
          <MostActive users={answer.most_active} />
        )}
      </Paper>
    </>
  );
}

function Figure({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <Paper withBorder p="sm" miw={180}>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text fw={700} size="lg" data-testid={testId}>
        {value}
      </Text>
    </Paper>
  );
}

function MostActive({ users }: { users: ActiveUser[] }) {
  const { t } = useTranslation();
  return (
    <Table data-testid="activity-most-active">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t('admin.name')}</Table.Th>
          <Table.Th>{t('activity.active_days')}</Table.Th>
          <Table.Th>{t('activity.sign_ins')}</Table.Th>
          <Table.Th>{t('activity.last_sign_in')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {users.map((user) => (
          <Table.Tr key={user.id} data-testid="activity-user">
            <Table.Td>
              <Anchor component={Link} to={`/user/${user.id}`}>
                {memberName(user)}
              </Anchor>
            </Table.Td>
            <Table.Td>{user.active_days}</Table.Td>
            <Table.Td>{user.sign_ins}</Table.Td>
            <Table.Td>{user.last_sign_in ? formatDate(user.last_sign_in) : '–'}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
