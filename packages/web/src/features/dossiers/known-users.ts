import { type DisplayItem, displayItemRows, valueRefsOf, valueTypeOf } from '@dossierbase/core';
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

/** The user ids in the values of user items (user and system user fields, creator and editor) over contents (item id -> value). */
export function storedUserIds(
  items: readonly DisplayItem[],
  contents: readonly Record<string, unknown>[],
): number[] {
  const userItems = items.filter((item) => valueRefsOf(valueTypeOf(displayItemRows(item))) === 'users');
  const ids = new Set<number>();
  for (const content of contents)
    for (const item of userItems) {
      const value = content[String(item.id)];
      for (const id of Array.isArray(value) ? value : [value])
        if (typeof id === 'number' && Number.isInteger(id) && id > 0) ids.add(id);
    }
  return [...ids];
}
