import type { VisibleItem } from '../../policy/display-item';

// The display items a dossier form or detail page works with, and what every step asks of one.

export const EDIT_VIEWS = ['edit', 'show/edit'];
export const DETAIL_VIEWS = ['edit', 'show', 'show/edit'];

/** The name a change log entry gives the item. */
export const itemName = (v: VisibleItem) =>
  v.item.translations[0]?.name || v.dataField?.name || v.link?.name || String(v.item.id);

/** Display item id (as the request keys it) -> item. */
export const itemMap = (items: VisibleItem[]) => new Map(items.map((v) => [String(v.item.id), v]));
