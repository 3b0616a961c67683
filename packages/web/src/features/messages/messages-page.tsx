import { Badge, Button, Group, Loader, SegmentedControl, Stack, Table, Text, Title } from '@mantine/core';
import { IconPencil } from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { formatDate } from '../../app/format';
import { AnswerPager } from '../../app/pager';
import { useEnvironment } from '../environments/environment-store';
import { openCompose } from './compose-request';
import { messageTitle, senderName } from './message-text';
import { fetchMessages, messageKeys } from './messages-api';

const PAGE_SIZE = 20;

// /messages: the incoming and outgoing messages of the environment, newest first; unread ones in bold.
export function MessagesPage() {
  const { t } = useTranslation();
  const environment = useEnvironment()?.id ?? 0;
  const [address, setAddress] = useSearchParams();
  const filter = address.get('filter') === 'outgoing' ? 'outgoing' : 'incoming';
  const [page, setPage] = useState(0);
  const params = { environment, filter, limit: PAGE_SIZE, page } as const;
  const messages = useQuery({
    queryKey: messageKeys.list(params),
    queryFn: ({ signal }) => fetchMessages(params, signal),
    enabled: environment > 0,
    placeholderData: keepPreviousData,
  });
  const results = messages.data?.results ?? [];

  return (
    <Stack data-testid="messages-page">
      <Group justify="space-between">
        <Title order={1} size="h3">
          {t('messages.title')}
        </Title>
        <Button
          leftSection={<IconPencil size={16} />}
          onClick={() => void openCompose()}
          data-testid="messages-compose"
        >
          {t('messages.new')}
        </Button>
      </Group>
      <SegmentedControl
        aria-label={t('messages.filter')}
        value={filter}
        onChange={(value) => {
          setPage(0);
          setAddress(value === 'outgoing' ? { filter: value } : {});
        }}
        data={[
          { value: 'incoming', label: t('messages.incoming') },
          { value: 'outgoing', label: t('messages.outgoing') },
        ]}
        maw={320}
        data-testid="messages-filter"
      />
      {messages.isPending ? (
        <Loader />
      ) : results.length === 0 ? (
        <Text c="dimmed" data-testid="messages-empty">
          {t('messages.none')}
        </Text>
      ) : (
        <Table highlightOnHover data-testid="messages-list">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('messages.title_label')}</Table.Th>
              <Table.Th>{filter === 'outgoing' ? t('messages.to') : t('messages.from')}</Table.Th>
              <Table.Th>{t('messages.date')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {results.map((message) => {
              const unread = filter === 'incoming' && message.read_date === null;
              return (
                <Table.Tr key={message.id} data-testid="message-row" data-unread={unread}>
                  <Table.Td>
                    <Group gap="xs" wrap="nowrap">
                      <Link to={`/messages/${message.id}`} style={{ fontWeight: unread ? 700 : 400 }}>
                        {messageTitle(message, t)}
                      </Link>
                      {message.type === 'popup' && (
                        <Badge size="xs" variant="light">
                          {t('messages.type_popup')}
                        </Badge>
                      )}
                      {unread && (
                        <Badge size="xs" color="red.8">
                          {t('messages.unread')}
                        </Badge>
                      )}
                    </Group>
                  </Table.Td>
                  <Table.Td>
                    {filter === 'outgoing'
                      ? message.recipients.map((r) => r.name).join(', ')
                      : senderName(message, t)}
                  </Table.Td>
                  <Table.Td>{formatDate(message.created_at)}</Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      )}
      <AnswerPager pager={messages.data?.pager} page={page} onPage={setPage} />
    </Stack>
  );
}
