import { type Avatar, avatarPaths } from '@dossierbase/core';
import type { UserRow } from '../../db/schema';

/** What versions the avatar's address: the time of its upload, in base 36. */
export const avatarVersion = (uploadedAt: Date) => uploadedAt.getTime().toString(36);

/** The addresses of the user's avatar, or null when they have none. */
export const presentAvatar = (user: Pick<UserRow, 'id' | 'avatar_at'>): Avatar =>
  user.avatar_at ? avatarPaths(user.id, avatarVersion(user.avatar_at)) : null;
