import { MEMBER_PAGE_SIZE, type Member } from '@dossierbase/core';
import {
  Anchor,
  Badge,
  Button,
  Center,
  Group,
  Loader,
  SegmentedControl,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch, IconUserPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Pager } from '../../../app/pager';
import { useRoles } from '../admin-api';
import { AdminOnly } from '../admin-guard';
import { InviteModal } from './invite-modal';
import { credentialLabel, globalRoleLabel, memberName, memberStatus, STATUS_COLORS } from './member-labels';
import { type MemberListParams, useMembers } from './members-api';

/** /user: the environment's members with their state, roles and credentials; invitations by e-mail. */
export function MembersPage() {
  return (
    <AdminOnly>
      <MemberList />
    </AdminOnly>
  );
}

function MemberList() {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const [active, setActive] = useState<MemberListParams['active']>('');
  const [page, setPage] = useState(0);
  const [inviting, setInviting] = useState(false);
  const list = useMembers({ search: debounced, active, page, limit: MEMBER_PAGE_SIZE });
  const { data: roles = [] } = useRoles();
  const roleNames = new Map(roles.map((role) => [role.id, role.name]));
  const data = list.data;

  return (
    <Stack data-testid="members-page">
      <Group justify="space-between">
        <Title order={1} size="h3">
          {t('admin.members.title')}
        </Title>
        <Button
          leftSection={<IconUserPlus size={16} />}
          onClick={() => setInviting(true)}
          data-testid="members-invite"
        >
          {t('admin.members.invite')}
        </Button>
      </Group>
      <Group align="flex-end">
        <TextInput
          label={t('common.search')}
          placeholder={t('admin.members.search')}
          leftSection={<IconSearch size={16} />}
          value={search}
          onChange={(event) => {
            setSearch(event.currentTarget.value);
            setPage(0);
          }}
          w={320}
          data-testid="members-search"
        />
        <SegmentedControl
          aria-label={t('admin.members.state')}
          value={active}
          onChange={(value) => {
            setActive(value as MemberListParams['active']);
            setPage(0);
          }}
          data={[
            { value: '', label: t('admin.members.state_all') },
            { value: '1', label: t('admin.members.status.active') },
            { value: '0', label: t('admin.members.status.inactive') },
          ]}
          data-testid="members-state"
        />
      </Group>
      {!data ? (
        <Center py="xl">
          <Loader />
        </Center>
      ) : (
        <Stack gap="xs" style={{ opacity: list.isPlaceholderData ? 0.6 : 1 }}>
          <Table.ScrollContainer minWidth={720}>
            <Table highlightOnHover data-testid="members-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('admin.name')}</Table.Th>
                  <Table.Th>{t('admin.members.email')}</Table.Th>
                  <Table.Th>{t('admin.members.roles')}</Table.Th>
                  <Table.Th>{t('admin.members.credentials_label')}</Table.Th>
                  <Table.Th>{t('admin.members.state')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.results.map((member) => (
                  <MemberRow key={member.id} member={member} roleNames={roleNames} />
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          {data.results.length === 0 && (
            <Text ta="center" c="dimmed" py="md" data-testid="members-empty">
              {t('admin.members.empty')}
            </Text>
          )}
          <Group justify="space-between">
            <Text size="sm" c="dimmed" aria-live="polite" data-testid="members-total">
              {t('admin.members.total', { count: data.pager.items })}
            </Text>
            <Pager
              total={data.pager.pages}
              value={page + 1}
              onChange={(next) => setPage(next - 1)}
              withEdges
              data-testid="members-pager"
            />
          </Group>
        </Stack>
      )}
      <InviteModal opened={inviting} onClose={() => setInviting(false)} />
    </Stack>
  );
}

function MemberRow({ member, roleNames }: { member: Member; roleNames: Map<number, string> }) {
  const { t } = useTranslation();
  const status = memberStatus(member);
  return (
    <Table.Tr data-testid={`member-row-${member.id}`} data-status={status}>
      <Table.Td>
        <Anchor component={Link} to={`/user/${member.id}`} fw={500} data-testid="member-link">
          {memberName(member)}
        </Anchor>
        <Text size="xs" c="dimmed">
          {member.username}
        </Text>
        {member.global_roles.map((role) => (
          <Badge key={role} size="xs" variant="outline" color="grape" mr={4}>
            {globalRoleLabel(t, role)}
          </Badge>
        ))}
      </Table.Td>
      <Table.Td>{member.email}</Table.Td>
      <Table.Td>
        <Group gap={4}>
          {member.roles.map((id) => (
            <Badge key={id} variant="light" size="sm">
              {roleNames.get(id) ?? `#${id}`}
            </Badge>
          ))}
        </Group>
      </Table.Td>
      <Table.Td>
        <Group gap={4}>
          {member.credentials.map((credential) => (
            <Badge key={credential} variant="outline" size="sm" color="gray">
              {credentialLabel(t, credential)}
            </Badge>
          ))}
        </Group>
      </Table.Td>
      <Table.Td>
        <Badge color={STATUS_COLORS[status]} variant="light" data-testid="member-status">
          {t(`admin.members.status.${status}`)}
        </Badge>
      </Table.Td>
    </Table.Tr>
  );
}
