import { POPUP_FIRST_MS, POPUP_POLL_MS } from '@dossierbase/core';
import { Anchor, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { notifyError } from '../../api/errors';
import { formatDate } from '../../app/format';
import { useEnvironment } from '../environments/environment-store';
import { MessageBody } from './message-body';
import { messageTitle, senderName } from './message-text';
import { fetchMessages, markMessageRead, messageKeys } from './messages-api';

// Pop-up messages (spec doc 2 sections 4 and 9): unread pop-ups are asked for 5 s after the shell
// opens and every 300 s after (and at once when the server pushes a new unread count); the oldest
// shows in a static modal until the user marks it read or goes to the inbox.

export function PopupMessages() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const environment = useEnvironment()?.id ?? 0;
  const [started, setStarted] = useState(false);
  useEffect(() => {
    const timer = window.setTimeout(() => setStarted(true), POPUP_FIRST_MS);
    return () => window.clearTimeout(timer);
  }, []);
  const params = {
    environment,
    filter: 'incoming' as const,
    new: 1 as const,
    type: 'popup' as const,
    limit: 20,
  };
  const popups = useQuery({
    queryKey: messageKeys.list(params),
    queryFn: ({ signal }) => fetchMessages(params, signal),
    enabled: started && environment > 0,
    refetchInterval: POPUP_POLL_MS,
  });
  const current = popups.data?.results.at(-1);
  const read = useMutation({
    mutationFn: (id: number) => markMessageRead(id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: messageKeys.all }),
    onError: (error) => notifyError(error, t),
  });
  if (!current) return null;

  return (
    <Modal
      opened
      onClose={() => undefined}
      closeOnClickOutside={false}
      closeOnEscape={false}
      withCloseButton={false}
      title={messageTitle(current, t)}
      size="lg"
    >
      <Stack gap="sm" data-testid="popup-message">
        <Text size="sm" c="dimmed">
          {current.sender_id ? (
            <Anchor component={Link} to={`/user/${current.sender_id}`} size="sm" underline="always">
              {senderName(current, t)}
            </Anchor>
          ) : (
            senderName(current, t)
          )}
          {' · '}
          {formatDate(current.created_at)}
        </Text>
        <MessageBody message={current} />
        {current.content_dossier_id && (
          <Anchor
            component={Link}
            to={`/contentdossier/${current.content_dossier_id}`}
            size="sm"
            onClick={() => read.mutate(current.id)}
          >
            {t('messages.open_dossier')}
          </Anchor>
        )}
        <Group justify="flex-end">
          <Button
            variant="default"
            onClick={() => {
              read.mutate(current.id);
              navigate(`/messages/${current.id}`);
            }}
            data-testid="popup-inbox"
          >
            {t('messages.to_inbox')}
          </Button>
          <Button onClick={() => read.mutate(current.id)} loading={read.isPending} data-testid="popup-read">
            {t('messages.mark_read')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
