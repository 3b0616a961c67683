import { PRESENCES, type Presence, type Profile, type UserAbilities } from '@dossierbase/core';
import { Indicator, Menu, UnstyledButton } from '@mantine/core';
import {
  IconAddressBook,
  IconCheck,
  IconCreditCard,
  IconLogout,
  IconMail,
  IconShieldLock,
  IconUser,
} from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { notifyError } from '../../api/errors';
import { queryKeys } from '../../api/query-keys';
import { logout, useTokenData } from '../../features/auth/session';
import { memberName } from '../../features/dossiers/use-environment-users';
import { saveProfile, useProfile } from '../../features/people/people-api';
import { initials, PRESENCE_COLORS, UserAvatar } from '../../features/people/user-avatar';
import { isBuiltRoute } from '../built-routes';
import { disconnectRealtime } from '../realtime';

/** The user menu's pages (spec doc 1 section 2), each once its screen is built; subscriptions only for contract admins. */
interface UserLink {
  key: 'profile' | 'security' | 'subscriptions' | 'colleagues' | 'contact';
  to: string;
  icon: typeof IconUser;
  /** shown only to users with this ability (the server's, with the token data) */
  ability?: keyof UserAbilities;
}

const USER_LINKS: UserLink[] = [
  { key: 'profile', to: '/profile', icon: IconUser },
  { key: 'security', to: '/security', icon: IconShieldLock },
  { key: 'subscriptions', to: '/subscriptions', icon: IconCreditCard, ability: 'canHoldSubscriptions' },
  { key: 'colleagues', to: '/colleagues', icon: IconAddressBook },
  { key: 'contact', to: '/contact', icon: IconMail },
];

export function UserMenu() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const token = useTokenData();
  const profile = useProfile();
  const presence: Presence = profile.data?.private_settings?.presence ?? 'online';

  const savePresence = useMutation({
    mutationFn: (next: Presence) => saveProfile({ private_settings: { presence: next } }),
    onMutate: (next) => {
      const previous = queryClient.getQueryData<Profile>(queryKeys.profile);
      if (previous) {
        queryClient.setQueryData<Profile>(queryKeys.profile, {
          ...previous,
          private_settings: { ...previous.private_settings, presence: next },
        });
      }
      return { previous };
    },
    onError: (error, _next, context) => {
      if (context?.previous) queryClient.setQueryData(queryKeys.profile, context.previous);
      notifyError(error, t);
    },
    onSuccess: (saved) => {
      if (saved && typeof saved === 'object' && 'private_settings' in saved) {
        queryClient.setQueryData(queryKeys.profile, saved);
      }
      // colleagues' lists show the presence too
      void queryClient.invalidateQueries({ queryKey: queryKeys.members });
    },
  });

  const signOut = async () => {
    disconnectRealtime();
    await logout();
    // A full load drops every in-memory cache of the old session.
    window.location.replace('/');
  };

  const displayName = profile.data
    ? memberName({ username: profile.data.username, profile: profile.data })
    : (token?.username ?? '');

  return (
    <Menu position="bottom-end" width={220} withinPortal>
      <Menu.Target>
        <UnstyledButton aria-label={`${initials(displayName)} ${t('user.menu')}`} data-testid="user-menu">
          <UserAvatar name={displayName} image={profile.data?.avatar?.small} presence={presence} />
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{displayName}</Menu.Label>
        {USER_LINKS.filter(
          (link) => isBuiltRoute(link.to) && (!link.ability || token?.abilities?.[link.ability]),
        ).map((link) => (
          <Menu.Item
            key={link.key}
            component={Link}
            to={link.to}
            leftSection={<link.icon size={16} />}
            data-testid={`user-menu-${link.key}`}
          >
            {t(`user.${link.key}`)}
          </Menu.Item>
        ))}
        <Menu.Divider />
        <Menu.Label>{t('presence.label')}</Menu.Label>
        {PRESENCES.map((option) => (
          <Menu.Item
            key={option}
            closeMenuOnClick={false}
            leftSection={
              <Indicator color={PRESENCE_COLORS[option]} size={10} position="middle-center" inline />
            }
            rightSection={option === presence ? <IconCheck size={14} /> : null}
            onClick={() => option !== presence && savePresence.mutate(option)}
            data-testid={`presence-${option}`}
            data-selected={option === presence}
          >
            {t(`presence.${option}`)}
          </Menu.Item>
        ))}
        <Menu.Divider />
        <Menu.Item
          color="red"
          leftSection={<IconLogout size={16} />}
          onClick={() => void signOut()}
          data-testid="user-menu-logout"
        >
          {t('user.logout')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
