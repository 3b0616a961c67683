import type { EnvironmentMember } from '@dossierbase/core';
import { Anchor, Card, Group, Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { memberName } from '../dossiers/use-environment-users';
import { PresenceBadge } from './presence-badge';
import { UserAvatar } from './user-avatar';

/** A member in a list: picture and name, linking to their profile, what `children` adds, and presence. */
export function ColleagueCard({
  member,
  children,
  testId = 'colleague-card',
}: {
  member: EnvironmentMember;
  children?: ReactNode;
  testId?: string;
}) {
  const name = memberName(member);
  return (
    <Card withBorder padding="md" data-testid={testId}>
      <Group wrap="nowrap">
        <UserAvatar name={name} image={member.avatar?.small} presence={member.presence} />
        <Stack gap={4} style={{ minWidth: 0 }}>
          <Anchor component={Link} to={`/user/${member.id}`} fw={600} truncate data-testid="colleague-link">
            {name}
          </Anchor>
          {children}
          <Group gap="xs">
            <PresenceBadge presence={member.presence} />
          </Group>
        </Stack>
      </Group>
    </Card>
  );
}
