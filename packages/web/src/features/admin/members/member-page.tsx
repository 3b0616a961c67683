import {
  CHANGEABLE_GLOBAL_ROLES,
  type ChangeableGlobalRole,
  type EnvironmentCredential,
  globalRolesSchema,
  type MemberDetail,
  memberInviteSchema,
} from '@dossierbase/core';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  Alert,
  Badge,
  Button,
  Center,
  Group,
  Loader,
  Paper,
  Stack,
  Switch,
  Text,
  Title,
} from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconArrowLeft, IconMailForward, IconShieldLock, IconUserMinus } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import type { z } from 'zod';
import { isApiError } from '../../../api/client';
import { actionErrorMessage, notifyFailure, notifySuccess } from '../../../api/errors';
import { formatDate } from '../../../app/format';
import { NotFoundPage } from '../../../app/not-found-page';
import { useEnvironmentId, useRefreshAdmin } from '../admin-api';
import { formError, useAdminMutation } from '../admin-form';
import { AdminOnly } from '../admin-guard';
import { FormCheckboxGroup } from '../form-controls';
import { MemberAccessFields } from './member-fields';
import { globalRoleLabel, memberName, memberStatus, STATUS_COLORS } from './member-labels';
import {
  changeMember,
  memberKey,
  removeMember,
  resendInvitation,
  setGlobalRoles,
  useMember,
} from './members-api';

/** /user/{id}: one member, for the environment's admins: roles, credentials, access, global roles. */
export function MemberPage() {
  return (
    <AdminOnly>
      <Member />
    </AdminOnly>
  );
}

function Member() {
  const { t } = useTranslation();
  const id = Number(useParams().id);
  const { data: member, error } = useMember(id);
  if (isApiError(error, 404) || !(id > 0)) return <NotFoundPage />;
  if (error) {
    return (
      <Alert color="red" data-testid="member-error">
        {actionErrorMessage(error, t)}
      </Alert>
    );
  }
  if (!member) {
    return (
      <Center py="xl">
        <Loader />
      </Center>
    );
  }
  const name = memberName(member);
  const status = memberStatus(member);
  return (
    <Stack data-testid="member-page" data-member-id={member.id}>
      <Group justify="space-between" align="flex-start">
        <Stack gap={4}>
          <Title order={1} size="h3">
            {name}
          </Title>
          <Text size="sm" c="dimmed">
            {/* an invited member's username is their address: said once */}
            {[member.username, member.email?.toLowerCase() === member.username ? null : member.email]
              .filter(Boolean)
              .join(' · ')}
          </Text>
          <Group gap="xs">
            <Badge color={STATUS_COLORS[status]} variant="light" data-testid="member-status">
              {t(`admin.members.status.${status}`)}
            </Badge>
            {member.global_roles.map((role) => (
              <Badge key={role} variant="outline" color="grape">
                {globalRoleLabel(t, role)}
              </Badge>
            ))}
            <Text size="xs" c="dimmed">
              {t('admin.members.member_since', { date: formatDate(member.created_at) })}
            </Text>
          </Group>
        </Stack>
        <Button
          variant="default"
          size="xs"
          component={Link}
          to="/user"
          leftSection={<IconArrowLeft size={14} />}
          data-testid="member-back"
        >
          {t('admin.members.title')}
        </Button>
      </Group>
      {member.last_admin && (
        <Alert color="blue" icon={<IconShieldLock size={18} />} data-testid="member-last-admin">
          {t('admin.members.last_admin', { name })}
        </Alert>
      )}
      <AccessForm member={member} />
      <Membership member={member} />
      {member.abilities.canChangeGlobalRoles && <GlobalRolesForm member={member} />}
    </Stack>
  );
}

const accessSchema = memberInviteSchema.pick({ roles: true, credentials: true });
type AccessValues = z.input<typeof accessSchema>;
type AccessSaved = z.output<typeof accessSchema>;

const accessValues = (member: MemberDetail): AccessValues => ({
  roles: member.roles,
  credentials: member.credentials as EnvironmentCredential[],
});

/** The member's roles and credentials in this environment, saved together. */
function AccessForm({ member }: { member: MemberDetail }) {
  const { t } = useTranslation();
  const environment = useEnvironmentId();
  const form = useForm<AccessValues, unknown, AccessSaved>({
    resolver: zodResolver(accessSchema),
    defaultValues: accessValues(member),
  });
  // the admin may change their own credentials: the shell's menu follows
  const save = useAdminMutation(form, (values: AccessSaved) => changeMember(environment, member.id, values), {
    environmentToo: true,
    onSuccess: () => notifySuccess(t('admin.saved')),
  });
  const { reset } = form;
  // start again from what the server stored
  useEffect(() => reset(accessValues(member)), [member, reset]);
  return (
    <SectionForm
      title={t('admin.members.access_title')}
      testId="member-access"
      onSubmit={form.handleSubmit((values) => save.mutate(values))}
      error={formError(form)}
      pending={save.isPending}
    >
      <MemberAccessFields control={form.control} />
    </SectionForm>
  );
}

/** A section of the member page that is a form of its own, with its title, error and Save button. */
function SectionForm({
  title,
  testId,
  onSubmit,
  error,
  pending,
  children,
}: {
  title: string;
  testId: string;
  onSubmit: (event?: FormEvent) => unknown;
  error?: string;
  pending: boolean;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const titleId = `${testId}-title`;
  return (
    <Paper withBorder p="md" component="section" aria-labelledby={titleId} data-testid={testId}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void onSubmit(event);
        }}
        noValidate
      >
        <Stack>
          <Title order={2} size="h4" id={titleId}>
            {title}
          </Title>
          {error && (
            <Alert color="red" data-testid="form-error">
              {error}
            </Alert>
          )}
          {children}
          <Group justify="flex-end">
            <Button type="submit" loading={pending} data-testid={`${testId}-save`}>
              {t('admin.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}

/** Active in this environment, a new invitation, removal: actions of their own, each confirmed by the server. */
function Membership({ member }: { member: MemberDetail }) {
  const { t } = useTranslation();
  const environment = useEnvironmentId();
  const refresh = useRefreshAdmin();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const name = memberName(member);
  const onError = (error: unknown) => notifyFailure(actionErrorMessage(error, t), t('common.error'));
  const setActive = useMutation({
    mutationFn: (active: boolean) => changeMember(environment, member.id, { active }),
    onSuccess: (saved) => {
      // the page shows the new state at once; the lists refetch
      queryClient.setQueryData(memberKey(environment, member.id), saved);
      notifySuccess(t(saved.active ? 'admin.members.activated' : 'admin.members.deactivated', { name }));
    },
    onError,
    onSettled: () => refresh(true),
  });
  const resend = useMutation({
    mutationFn: () => resendInvitation(environment, member.id),
    onSuccess: () => notifySuccess(t('admin.members.resent', { email: member.email })),
    onError,
  });
  const remove = useMutation({
    mutationFn: () => removeMember(environment, member.id),
    onSuccess: async () => {
      notifySuccess(t('admin.members.removed', { name }));
      await refresh(true);
      navigate('/user');
    },
    onError,
  });
  const confirmRemove = () =>
    modals.openConfirmModal({
      title: t('admin.members.remove_title', { name }),
      children: <Text size="sm">{t('admin.members.remove_text', { name })}</Text>,
      labels: { confirm: t('admin.members.remove'), cancel: t('common.cancel') },
      confirmProps: { color: 'red', 'data-testid': 'member-remove-confirm' } as Record<string, string>,
      onConfirm: () => remove.mutate(),
    });

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="member-membership-title">
      <Stack>
        <Title order={2} size="h4" id="member-membership-title">
          {t('admin.members.membership_title')}
        </Title>
        <Switch
          label={t('admin.members.active_label')}
          description={t('admin.members.active_hint')}
          checked={member.active}
          disabled={setActive.isPending}
          onChange={(event) => setActive.mutate(event.currentTarget.checked)}
          data-testid="member-active"
        />
        <Group>
          {member.invitation_pending && (
            <Button
              variant="light"
              leftSection={<IconMailForward size={16} />}
              loading={resend.isPending}
              onClick={() => resend.mutate()}
              data-testid="member-resend"
            >
              {t('admin.members.resend')}
            </Button>
          )}
          <Button
            color="red"
            variant="light"
            leftSection={<IconUserMinus size={16} />}
            loading={remove.isPending}
            onClick={confirmRemove}
            data-testid="member-remove"
          >
            {t('admin.members.remove')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

type GlobalValues = z.input<typeof globalRolesSchema>;
type GlobalSaved = z.output<typeof globalRolesSchema>;

const globalValues = (member: MemberDetail): GlobalValues => ({
  roles: member.global_roles as ChangeableGlobalRole[],
});

/** Super and contract admin, for super admins only (the server refuses everyone else). */
function GlobalRolesForm({ member }: { member: MemberDetail }) {
  const { t } = useTranslation();
  const form = useForm<GlobalValues, unknown, GlobalSaved>({
    resolver: zodResolver(globalRolesSchema),
    defaultValues: globalValues(member),
  });
  const save = useAdminMutation(form, (values: GlobalSaved) => setGlobalRoles(member.id, values.roles), {
    onSuccess: () => notifySuccess(t('admin.saved')),
  });
  const { reset } = form;
  useEffect(() => reset(globalValues(member)), [member, reset]);
  return (
    <SectionForm
      title={t('admin.members.global_title')}
      testId="member-global"
      onSubmit={form.handleSubmit((values) => save.mutate(values))}
      error={formError(form)}
      pending={save.isPending}
    >
      <Text size="sm" c="dimmed">
        {t('admin.members.global_hint')}
      </Text>
      <FormCheckboxGroup
        control={form.control}
        name="roles"
        options={CHANGEABLE_GLOBAL_ROLES.map((role) => ({
          value: role,
          label: globalRoleLabel(t, role),
          testId: `member-global-${role}`,
        }))}
      />
    </SectionForm>
  );
}
