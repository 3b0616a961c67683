import { type DossierPresence, type DossierViewer, PRESENCE_EVENTS } from '@dossierbase/core';
import { Avatar, Group, Menu, Text, Tooltip, UnstyledButton } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { exitDossierPresence, onRealtimeEvent, openDossierPresence } from '../../app/realtime';
import { useTokenData } from '../auth/session';
import { UserAvatar } from '../people/user-avatar';

// Presence on a dossier (issue 19, point 7; spec doc 3: "a presence indicator shows other users", an
// avatar list with a +N overflow dropdown): the others who have this dossier open, from the server's
// viewing room of the dossier.

/** Avatars shown before the +N. */
export const MAX_AVATARS = 3;

/** The others who have the dossier open now; this tab counts as viewing it while mounted. */
export function useDossierViewers(dossierId: number): DossierViewer[] {
  const me = useTokenData()?.user_id;
  const [viewers, setViewers] = useState<DossierViewer[]>([]);
  useEffect(() => {
    setViewers([]);
    const stop = onRealtimeEvent<DossierPresence>(PRESENCE_EVENTS.presence, (presence) => {
      if (presence.dossierId === dossierId) setViewers(presence.viewers);
    });
    openDossierPresence(dossierId);
    return () => {
      stop();
      exitDossierPresence(dossierId);
    };
  }, [dossierId]);
  return viewers.filter((viewer) => viewer.id !== me);
}

export function DossierViewers({ dossierId }: { dossierId: number }) {
  const { t } = useTranslation();
  const others = useDossierViewers(dossierId);
  if (others.length === 0) return null;
  const shown = others.slice(0, MAX_AVATARS);
  const rest = others.slice(MAX_AVATARS);
  const names = others.map((viewer) => viewer.name).join(', ');
  return (
    <Group gap="xs" data-testid="dossier-viewers" role="group" aria-label={t('dossier.viewers', { names })}>
      <Avatar.Group spacing="sm">
        {shown.map((viewer) => (
          <Tooltip key={viewer.id} label={viewer.name} withArrow>
            {/* the names are read out from the group's label; the tooltip shows them on hover */}
            <span data-testid="dossier-viewer" data-user-id={viewer.id}>
              <UserAvatar name={viewer.name} image={viewer.avatar?.small} size={33} />
            </span>
          </Tooltip>
        ))}
        {rest.length > 0 ? (
          <Menu position="bottom-end" withinPortal>
            <Menu.Target>
              <UnstyledButton
                aria-label={t('dossier.viewers_more', { count: rest.length })}
                data-testid="dossier-viewers-more"
              >
                <Avatar radius={1000} size={33} color="gray">
                  +{rest.length}
                </Avatar>
              </UnstyledButton>
            </Menu.Target>
            <Menu.Dropdown>
              {rest.map((viewer) => (
                <Menu.Item
                  key={viewer.id}
                  leftSection={<UserAvatar name={viewer.name} image={viewer.avatar?.small} size={25} />}
                  data-testid="dossier-viewer"
                  data-user-id={viewer.id}
                >
                  <Text size="sm">{viewer.name}</Text>
                </Menu.Item>
              ))}
            </Menu.Dropdown>
          </Menu>
        ) : null}
      </Avatar.Group>
    </Group>
  );
}
