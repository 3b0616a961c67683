import { Alert, Anchor, Loader, Stack, Text, Timeline } from '@mantine/core';
import { IconCalendarEvent } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { AnswerPager } from '../../../app/pager';
import { FieldDisplay } from '../../../fields';
import { useEnvironment } from '../../environments/environment-store';
import { useItemOptions } from '../list/list-api';
import { useEnvironmentUsers } from '../use-environment-users';
import type { LinkedViewProps } from './linked-view';
import { timelineEntries } from './timeline-data';
import { itemOfField, settingId, useEntityDefinition, useViewList } from './view-data';

const PAGE_SIZE = 50;

/**
 * The timeline of an embedded list (spec doc 3 section 3): the linked dossiers in the order of the
 * entity's timeline_field, each with its timeline_desc_field; the page's dossiers without a date last.
 */
export function TimelineView(props: LinkedViewProps) {
  const { t } = useTranslation();
  const [page, setPage] = useState(0);
  const entity = useEntityDefinition(props.entityId);
  const settings = entity.data?.settings as Record<string, unknown> | undefined;
  const dateField = settingId(settings, 'timeline_field');
  const descField = settingId(settings, 'timeline_desc_field');
  const list = useViewList(
    entity.data && dateField !== null
      ? {
          defDossier: props.entityId,
          embedded: props.parentDossierId,
          linkId: props.linkId,
          view: 'timeline',
          limit: PAGE_SIZE,
          page,
        }
      : null,
  );
  const admin = useEnvironment()?.abilities?.canAdminister ?? false;
  const dateItem = itemOfField(list.data, dateField);
  const descItem = itemOfField(list.data, descField);
  const optionsOf = useItemOptions(descItem ? [descItem] : [], admin);
  const { users } = useEnvironmentUsers();

  if (entity.isLoading || list.isLoading) return <Loader size="sm" aria-label={t('linked_views.loading')} />;
  if (entity.data && dateField === null)
    return (
      <Alert color="yellow" data-testid="timeline-not-configured">
        {t('linked_views.timeline.no_date_field')}
      </Alert>
    );
  if (list.isError || entity.isError) return <Alert color="red">{t('common.something_went_wrong')}</Alert>;
  const entries = timelineEntries(list.data, dateField);
  if (entries.length === 0) return <Text c="dimmed">{t('linked_views.no_items')}</Text>;

  return (
    <Stack gap="sm" data-testid="timeline-view">
      <Timeline bulletSize={22} lineWidth={2} active={entries.length}>
        {entries.map(({ dossier, date }) => (
          <Timeline.Item
            key={dossier.id}
            bullet={<IconCalendarEvent size={14} aria-hidden />}
            title={
              <Anchor component={Link} to={`/contentdossier/${dossier.id}`} fw={600}>
                {dossier.summary}
              </Anchor>
            }
            data-testid={`timeline-entry-${dossier.id}`}
          >
            {date && dateItem ? (
              <Text size="sm" component="div" c="dimmed">
                <FieldDisplay
                  item={dateItem}
                  value={list.data?.results.contents[String(dossier.id)]?.[String(dateItem.id)]}
                  users={users}
                  listMode
                />
              </Text>
            ) : (
              <Text size="sm" c="dimmed">
                {t('linked_views.timeline.no_date')}
              </Text>
            )}
            {descItem && (
              <Text size="sm" component="div">
                <FieldDisplay
                  item={descItem}
                  value={list.data?.results.contents[String(dossier.id)]?.[String(descItem.id)]}
                  options={optionsOf(descItem)}
                  users={users}
                  listMode
                />
              </Text>
            )}
          </Timeline.Item>
        ))}
      </Timeline>
      <AnswerPager pager={list.data?.pager} page={page} onPage={setPage} size="sm" />
    </Stack>
  );
}
