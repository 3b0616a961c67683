import type { Presence, SeenPresence } from '@dossierbase/core';
import { Avatar, type AvatarProps, Indicator } from '@mantine/core';

export const PRESENCE_COLORS: Record<Presence | SeenPresence, string> = {
  online: 'green',
  away: 'yellow',
  busy: 'red',
  invisible: 'gray',
  offline: 'gray',
};

/** The first letters of the first two words of a name. */
export function initials(name: string): string {
  return name
    .split(/\s+/)
    .map((part) => part[0] ?? '')
    .join('')
    .slice(0, 2)
    .toUpperCase();
}

/**
 * A user's picture, or their initials while they have none, with their presence as a coloured dot.
 * Decorative: the name and presence are written beside it (or in the label of what holds it).
 */
export function UserAvatar({
  name,
  image,
  presence,
  size = 'md',
}: {
  name: string;
  image: string | null | undefined;
  presence?: Presence | SeenPresence;
  size?: AvatarProps['size'];
}) {
  const avatar = (
    <Avatar src={image ?? null} alt="" color="indigo" radius={1000} size={size} data-testid="user-avatar">
      {initials(name)}
    </Avatar>
  );
  if (!presence) return avatar;
  return (
    <Indicator
      color={PRESENCE_COLORS[presence]}
      position="bottom-end"
      offset={typeof size === 'number' && size > 60 ? 18 : 5}
      size={12}
      withBorder
      data-testid="user-presence"
      data-presence={presence}
    >
      {avatar}
    </Indicator>
  );
}
