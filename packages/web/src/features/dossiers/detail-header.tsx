import type { DossierDetail } from '@dossierbase/core';
import { ActionIcon, Anchor, Breadcrumbs, Group, Text, Title, Tooltip } from '@mantine/core';
import { IconBell, IconBellOff, IconMail, IconStar, IconStarFilled } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { notifyError, notifySuccess } from '../../api/errors';
import { formatDate } from '../../app/format';
import { openCompose } from '../messages/compose-request';
import { dossierKeys, setFavourite, setSubscription } from './dossier-api';

// Breadcrumb (Home, type name, summary), title (summary, else the id), favourite, subscribe and the
// page's other actions.

export function DetailHeader({
  detail,
  typeName,
  actions,
}: {
  detail: DossierDetail;
  typeName: string;
  /** the action bar beside favourite and subscribe */
  actions?: ReactNode;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { dossier } = detail;
  const title = dossier.summary || `#${dossier.id}`;
  const refresh = () => queryClient.invalidateQueries({ queryKey: dossierKeys.all });

  const favourite = useMutation({
    mutationFn: (on: boolean) => setFavourite(dossier.id, on),
    onSuccess: (_, on) => {
      notifySuccess(t(on ? 'dossier_errors.favorite_add' : 'dossier_errors.favorite_remove'));
      void refresh();
    },
    onError: (error) => notifyError(error, t),
  });
  const subscription = useMutation({
    mutationFn: (on: boolean) => setSubscription(dossier.id, on),
    // the toggle shows the state the server answers
    onSuccess: ({ result }) => {
      queryClient.setQueryData<DossierDetail>(dossierKeys.detail(dossier.id, null), (old) =>
        old ? { ...old, subscribed: result } : old,
      );
      notifySuccess(t(result ? 'dossier.subscribed_on' : 'dossier.subscribed_off'));
      void refresh();
    },
    onError: (error) => notifyError(error, t),
  });

  return (
    <>
      <Breadcrumbs data-testid="dossier-breadcrumb">
        <Anchor component={Link} to="/" size="sm">
          {t('common.home')}
        </Anchor>
        <Anchor component={Link} to={`/defdossier/${dossier.def_dossier_id}`} size="sm">
          {typeName}
        </Anchor>
        <Text size="sm">{title}</Text>
      </Breadcrumbs>
      <Group justify="space-between" align="flex-start">
        <div>
          <Title order={1} size="h2" data-testid="dossier-title">
            {title}
          </Title>
          <Text size="xs" c="dimmed">
            {t('dossier.created_by', {
              date: formatDate(dossier.created_at),
              user: dossier.created_by?.username ?? '-',
            })}
            {' · '}
            {t('dossier.modified_by', {
              date: formatDate(dossier.modified_at),
              user: dossier.modified_by?.username ?? '-',
            })}
          </Text>
        </div>
        <Group gap="xs" justify="flex-end">
          {actions}
          <Tooltip label={t('messages.about_dossier')}>
            <ActionIcon
              variant="subtle"
              size="lg"
              aria-label={t('messages.about_dossier')}
              onClick={() => void openCompose({ dossier: { id: dossier.id, summary: title } })}
              data-testid="dossier-message"
            >
              <IconMail size={20} />
            </ActionIcon>
          </Tooltip>
          <Tooltip label={t(detail.favorite ? 'dossier.favourite_remove' : 'dossier.favourite_add')}>
            <ActionIcon
              variant="subtle"
              color="yellow"
              size="lg"
              aria-label={t(detail.favorite ? 'dossier.favourite_remove' : 'dossier.favourite_add')}
              aria-pressed={detail.favorite}
              loading={favourite.isPending}
              onClick={() => favourite.mutate(!detail.favorite)}
              data-testid="dossier-favourite"
            >
              {detail.favorite ? <IconStarFilled size={20} /> : <IconStar size={20} />}
            </ActionIcon>
          </Tooltip>
          <Tooltip label={t(detail.subscribed ? 'dossier.unsubscribe' : 'dossier.subscribe')}>
            <ActionIcon
              variant="subtle"
              size="lg"
              aria-label={t(detail.subscribed ? 'dossier.unsubscribe' : 'dossier.subscribe')}
              aria-pressed={detail.subscribed}
              loading={subscription.isPending}
              onClick={() => subscription.mutate(!detail.subscribed)}
              data-testid="dossier-subscribe"
            >
              {detail.subscribed ? <IconBell size={20} /> : <IconBellOff size={20} />}
            </ActionIcon>
          </Tooltip>
        </Group>
      </Group>
    </>
  );
}
