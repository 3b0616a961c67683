import { REPLY_PREFIX } from '@dossierbase/core';
import { Anchor, Breadcrumbs, Button, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { IconArrowBackUp, IconExternalLink } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { isApiError } from '../../api/client';
import { formatDate } from '../../app/format';
import { openCompose } from './compose-request';
import { MessageBody } from './message-body';
import { messageTitle, senderName } from './message-text';
import { fetchMessage, markMessageRead, messageKeys } from './messages-api';

// /messages/{id}: one message; opening an unread one marks it read. Reply writes to the sender with
// 'RE: ' before the title.
export function MessagePage() {
  const id = Number(useParams().id);
  // one view per message: going from one message to another marks the other read too
  return <MessageView key={id} id={id} />;
}

function MessageView({ id }: { id: number }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const message = useQuery({
    queryKey: messageKeys.one(id),
    queryFn: ({ signal }) => fetchMessage(id, signal),
    enabled: Number.isSafeInteger(id) && id > 0,
  });
  const read = useMutation({
    mutationFn: () => markMessageRead(id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: messageKeys.all }),
  });
  const data = message.data;
  const unread = data && !data.outgoing && data.read_date === null;
  const { mutate, isIdle } = read;
  useEffect(() => {
    if (unread && isIdle) mutate();
  }, [unread, isIdle, mutate]);

  if (message.isPending) return <Loader />;
  if (!data) {
    return (
      <Text c="red" role="alert" data-testid="message-missing">
        {isApiError(message.error, 404) ? t('messages.not_found') : t('common.something_went_wrong')}
      </Text>
    );
  }
  const title = messageTitle(data, t);
  const reply = () =>
    openCompose({
      to: data.sender_id ? [{ id: data.sender_id, name: senderName(data, t) }] : [],
      title: data.title.startsWith(REPLY_PREFIX) ? data.title : `${REPLY_PREFIX}${data.title}`,
    });

  return (
    <Stack data-testid="message-page">
      <Breadcrumbs>
        <Anchor component={Link} to="/messages" size="sm">
          {t('messages.title')}
        </Anchor>
        <Text size="sm">{title}</Text>
      </Breadcrumbs>
      <Title order={1} size="h3" data-testid="message-title">
        {title}
      </Title>
      <Text size="sm" c="dimmed">
        {data.outgoing ? (
          <>
            {t('messages.to')}: {data.recipients.map((r) => r.name).join(', ')}
          </>
        ) : (
          <>
            {t('messages.from')}:{' '}
            {data.sender_id ? (
              <Anchor
                component={Link}
                to={`/user/${data.sender_id}`}
                size="sm"
                underline="always"
                data-testid="message-sender"
              >
                {senderName(data, t)}
              </Anchor>
            ) : (
              senderName(data, t)
            )}
          </>
        )}
        {' · '}
        {formatDate(data.created_at)}
      </Text>
      <Paper withBorder p="md">
        <MessageBody message={data} />
      </Paper>
      <Group>
        {data.content_dossier_id && data.notice?.event !== 'delete' && (
          <Button
            component={Link}
            to={`/contentdossier/${data.content_dossier_id}`}
            variant="light"
            leftSection={<IconExternalLink size={16} />}
            data-testid="message-dossier"
          >
            {t('messages.open_dossier')}
          </Button>
        )}
        {!data.outgoing && data.sender_id && (
          <Button
            leftSection={<IconArrowBackUp size={16} />}
            onClick={() => void reply()}
            data-testid="message-reply"
          >
            {t('messages.reply')}
          </Button>
        )}
      </Group>
    </Stack>
  );
}
