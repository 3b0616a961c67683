import { BELL_MESSAGES, BELL_TEXT_LENGTH, BELL_TITLE_LENGTH } from '@dossierbase/core';
import {
  ActionIcon,
  Anchor,
  Button,
  Divider,
  Group,
  Indicator,
  Loader,
  Popover,
  Stack,
  Text,
  UnstyledButton,
} from '@mantine/core';
import { IconBell, IconPencil } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { formatDate } from '../../app/format';
import { useEnvironment } from '../environments/environment-store';
import { openCompose } from './compose-request';
import { cutAtWord, messagePlainText, messageTitle, senderName } from './message-text';
import { fetchMessages, messageKeys, useUnreadCount } from './messages-api';

// The top bar's bell (spec doc 2, "Other modals"): the unread count, and a popover with the five
// newest unread messages, '+ N remaining unread messages', a new message and the inbox.

export function MessageBell() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const environment = useEnvironment()?.id ?? 0;
  const total = useUnreadCount(environment);
  const [opened, setOpened] = useState(false);
  const params = { environment, filter: 'incoming' as const, new: 1 as const, limit: BELL_MESSAGES };
  const latest = useQuery({
    queryKey: messageKeys.list(params),
    queryFn: ({ signal }) => fetchMessages(params, signal),
    enabled: opened && environment > 0,
  });
  const messages = latest.data?.results ?? [];
  const remaining = Math.max(0, total - BELL_MESSAGES);
  const open = (id: number) => {
    setOpened(false);
    // the page marks it read; the count goes down at once
    queryClient.setQueryData(messageKeys.unread(environment), { total: Math.max(0, total - 1) });
    navigate(`/messages/${id}`);
  };

  return (
    <Popover opened={opened} onChange={setOpened} width={340} position="bottom-end" withArrow trapFocus>
      <Popover.Target>
        <ActionIcon
          variant="subtle"
          size="lg"
          aria-label={t('messages.bell', { count: total })}
          onClick={() => setOpened(!opened)}
          data-testid="shell-bell"
        >
          <Indicator
            label={total > 99 ? '99+' : total}
            disabled={total === 0}
            size={18}
            color="red.8"
            offset={2}
            data-testid="bell-count"
            data-count={total}
          >
            <IconBell size={20} />
          </Indicator>
        </ActionIcon>
      </Popover.Target>
      <Popover.Dropdown data-testid="bell-popover">
        <Stack gap="xs">
          <Text fw={700} size="sm">
            {t('messages.unread_title')}
          </Text>
          {latest.isPending ? (
            <Loader size="sm" />
          ) : messages.length === 0 ? (
            <Text size="sm" c="dimmed" data-testid="bell-empty">
              {t('messages.no_unread')}
            </Text>
          ) : (
            messages.map((message) => (
              <UnstyledButton
                key={message.id}
                onClick={() => open(message.id)}
                data-testid="bell-message"
                style={{ display: 'block' }}
              >
                <Group justify="space-between" wrap="nowrap" gap="xs">
                  <Text size="sm" fw={600}>
                    {cutAtWord(messageTitle(message, t), BELL_TITLE_LENGTH)}
                  </Text>
                  <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                    {formatDate(message.created_at)}
                  </Text>
                </Group>
                <Text size="xs" c="dimmed">
                  {senderName(message, t)}
                </Text>
                <Text size="sm">{cutAtWord(messagePlainText(message, t), BELL_TEXT_LENGTH)}</Text>
              </UnstyledButton>
            ))
          )}
          {remaining > 0 && (
            <Text size="sm" c="dimmed" data-testid="bell-remaining">
              {t('messages.remaining', { count: remaining })}
            </Text>
          )}
          <Divider />
          <Group justify="space-between">
            <Anchor component={Link} to="/messages" size="sm" onClick={() => setOpened(false)}>
              {t('messages.inbox')}
            </Anchor>
            <Button
              size="xs"
              leftSection={<IconPencil size={14} />}
              onClick={() => {
                setOpened(false);
                void openCompose();
              }}
              data-testid="bell-compose"
            >
              {t('messages.new')}
            </Button>
          </Group>
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
