import type { VisibleItem } from '../../policy/display-item';

// The display items a dossier form or detail page works with, and what every step asks of one.

export const EDIT_VIEWS = ['edit', 'show/edit'];
export const DETAIL_VIEWS = ['edit', 'show', 'show/edit'];

/** What names an item: its first translation, else its data field's or link's name. */
export interface NamedItem {
  item: { id: number; translations: readonly { name?: string | null }[] };
  dataField: { name: string } | null;
  link: { name: string } | null;
}

/** The name a change log entry gives the item. */
export const itemName = (v: NamedItem) =>
  v.item.translations[0]?.name || v.dataField?.name || v.link?.name || String(v.item.id);

/** Display item id (as the request keys it) -> item. */
export const itemMap = (items: VisibleItem[]) => new Map(items.map((v) => [String(v.item.id), v]));
