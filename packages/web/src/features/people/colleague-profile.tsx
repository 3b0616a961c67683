import { Anchor, Button, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft, IconMail } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { errorMessage } from '../../api/errors';
import { memberName } from '../dossiers/use-environment-users';
import { useEnvironment } from '../environments/environment-store';
import { openCompose } from '../messages/compose-request';
import { useColleague } from './people-api';
import { PresenceBadge } from './presence-badge';
import { UserAvatar } from './user-avatar';

/** A colleague's profile as every member of the environment sees it: read-only. */
export function ColleagueProfile({ userId }: { userId: number }) {
  const { t } = useTranslation();
  const environment = useEnvironment()?.id ?? 0;
  const colleague = useColleague(environment, userId);

  const back = (
    <Anchor component={Link} to="/colleagues" size="sm" data-testid="colleague-back">
      <Group gap={4} component="span">
        <IconArrowLeft size={14} />
        {t('colleagues.back')}
      </Group>
    </Anchor>
  );
  if (colleague.isPending) return <Loader />;
  if (!colleague.data) {
    return (
      <Stack data-testid="colleague-not-found">
        {back}
        <Text>{colleague.isError ? errorMessage(colleague.error, t) : t('colleagues.not_found')}</Text>
      </Stack>
    );
  }
  const member = colleague.data;
  const name = memberName(member);
  return (
    <Stack data-testid="colleague-profile">
      {back}
      <Paper withBorder p="xl" maw={560}>
        <Group wrap="nowrap" gap="xl">
          <UserAvatar name={name} image={member.avatar?.large} presence={member.presence} size={120} />
          <Stack gap="xs" style={{ minWidth: 0 }}>
            <Title order={1} size="h3" data-testid="colleague-name">
              {name}
            </Title>
            <Text c="dimmed" size="sm">
              {t('colleagues.username')}: {member.username}
            </Text>
            <Group gap="xs">
              <PresenceBadge presence={member.presence} />
            </Group>
            <Group>
              <Button
                variant="light"
                leftSection={<IconMail size={16} />}
                onClick={() => void openCompose({ to: [{ id: member.id, name }] })}
                data-testid="colleague-message"
              >
                {t('messages.send_to_colleague')}
              </Button>
            </Group>
          </Stack>
        </Group>
      </Paper>
    </Stack>
  );
}
