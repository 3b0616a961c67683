import { DEFAULT_PAGE_SIZE, PAGE_SIZES } from '@dossierbase/core';

// The list page size is kept per entity for the browser session (spec doc 2 section 9); anything
// stored that is not one of the offered sizes falls back to 50.

const key = (entityId: number) => `dossier_list_limit_${entityId}`;

type SessionLike = Pick<Storage, 'getItem' | 'setItem'>;

export function readPageSize(entityId: number, storage: SessionLike = sessionStorage): number {
  let stored: number;
  try {
    stored = Number(storage.getItem(key(entityId)));
  } catch {
    return DEFAULT_PAGE_SIZE;
  }
  return (PAGE_SIZES as readonly number[]).includes(stored) ? stored : DEFAULT_PAGE_SIZE;
}

export function savePageSize(entityId: number, size: number, storage: SessionLike = sessionStorage): void {
  if (!(PAGE_SIZES as readonly number[]).includes(size)) return;
  try {
    storage.setItem(key(entityId), String(size));
  } catch {
    // storage full or blocked: the size simply is not remembered
  }
}
