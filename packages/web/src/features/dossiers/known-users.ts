import type { UserOption } from '../../fields/types';

/** Users the page knows (the dossier's creator and last editor, the signed-in user) by id. */
export function knownUsers(...users: ({ id: number; username: string } | null | undefined)[]): UserOption[] {
  const byId = new Map<number, UserOption>();
  for (const user of users) if (user) byId.set(user.id, { id: user.id, name: user.username });
  return [...byId.values()];
}

/** Members first, then users only the page knows (e.g. a former member who edited the dossier). */
export function mergeUsers(members: readonly UserOption[], known: readonly UserOption[]): UserOption[] {
  const ids = new Set(members.map((u) => u.id));
  return [...members, ...known.filter((u) => !ids.has(u.id))];
}
