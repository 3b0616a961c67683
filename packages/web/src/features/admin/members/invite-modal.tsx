import { type MemberInviteAnswer, memberInviteSchema } from '@dossierbase/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { Group, Text } from '@mantine/core';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { notifySuccess, notifyWarning } from '../../../api/errors';
import { useEnvironmentId } from '../admin-api';
import { formError, useAdminMutation } from '../admin-form';
import { AdminModal } from '../admin-modal';
import { FormTextInput } from '../form-controls';
import { MemberAccessFields } from './member-fields';
import { memberName } from './member-labels';
import { inviteMember } from './members-api';

type Values = z.input<typeof memberInviteSchema>;
type Saved = z.output<typeof memberInviteSchema>;

const EMPTY: Values = { email: '', first_name: '', last_name: '', roles: [], credentials: [] };

/**
 * Invites a colleague by e-mail: an existing account joins the environment, a new address gets an
 * account and a mail with a one-time sign-in link.
 */
export function InviteModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const environment = useEnvironmentId();
  const form = useForm<Values, unknown, Saved>({
    resolver: zodResolver(memberInviteSchema),
    defaultValues: EMPTY,
  });
  const close = () => {
    form.reset(EMPTY);
    onClose();
  };
  const invite = useAdminMutation(form, (values: Saved) => inviteMember(environment, values), {
    onSuccess: (answer) => {
      announce(answer);
      close();
    },
  });
  const announce = ({ member, created, mailed }: MemberInviteAnswer) => {
    if (!mailed && created) {
      notifyWarning(t('admin.members.mail_failed', { name: memberName(member) }));
    } else if (created) notifySuccess(t('admin.members.invited', { email: member.email }));
    else if (mailed) notifySuccess(t('admin.members.added', { name: memberName(member) }));
    else notifySuccess(t('admin.members.added_quietly', { name: memberName(member) }));
  };

  return (
    <AdminModal
      opened={opened}
      onClose={close}
      title={t('admin.members.invite_title')}
      testId="invite-modal"
      size="lg"
      onSubmit={form.handleSubmit((values) => invite.mutate(values))}
      pending={invite.isPending}
      error={formError(form)}
      saveLabel={t('admin.members.invite_send')}
      saveTestId="invite-send"
    >
      <Text size="sm" c="dimmed">
        {t('admin.members.invite_hint')}
      </Text>
      <FormTextInput
        control={form.control}
        name="email"
        type="email"
        label={t('admin.members.email')}
        required
        data-autofocus
        data-testid="invite-email"
      />
      <Group grow>
        <FormTextInput control={form.control} name="first_name" label={t('admin.members.first_name')} />
        <FormTextInput control={form.control} name="last_name" label={t('admin.members.last_name')} />
      </Group>
      <MemberAccessFields control={form.control} />
    </AdminModal>
  );
}
