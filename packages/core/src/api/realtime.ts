import type { Avatar } from './profile';

// The socket.io events of an environment's room (spec doc 2 section 7, doc 3 section 7). They carry
// ids only: each client reads what changed again through the API, which applies its roles.

/** Events the server sends to the environment's room after a write's transaction has committed. */
export const DOSSIER_EVENTS = {
  created: 'dossier:created',
  changed: 'dossier:changed',
  archived: 'dossier:archived',
  deleted: 'dossier:deleted',
} as const;

/** The spec's display item events: an embedded list's content changed (update, fetch) or lost rows (delete). */
export const DISPLAY_ITEM_EVENTS = {
  /** a dossier was created inside an embedded list (dossier id, sender, display item) */
  update: 'displayItem:update',
  /** the dossiers linked to `dossierId` through `linkId` changed: its embedded lists read them again */
  fetch: 'displayItem:fetch',
  /** dossiers of an entity were deleted (defDossierId, sender, room) */
  delete: 'displayItem:delete',
} as const;

/** Presence on a dossier: the client opens and leaves (the spec's dossier:exit); the server answers presence. */
export const PRESENCE_EVENTS = {
  open: 'dossier:open',
  exit: 'dossier:exit',
  presence: 'dossier:presence',
} as const;

export type DossierEventName = (typeof DOSSIER_EVENTS)[keyof typeof DOSSIER_EVENTS];

/** A link to a parent through which a dossier was written (an embedded list's parent). */
export interface DossierEventLink {
  linkId: number;
  parentId: number;
}

/** One entity's dossiers that one write created, changed, archived or deleted. */
export interface DossierEvent {
  ids: number[];
  defDossier: number;
  /** the user who wrote */
  sender: number;
  /** dossier:archived: archived (true) or dearchived (false) */
  archived?: boolean;
  /** dossier:created inside an embedded list: the parent and link */
  links?: DossierEventLink[];
}

export interface DisplayItemUpdateEvent {
  dossierId: number;
  sender: number;
  /** the parent's display items of the link (the embedded lists) */
  displayItems: number[];
  parentId: number;
  linkId: number;
}

export interface DisplayItemFetchEvent {
  dossierId: number;
  linkId: number;
  sender: number;
}

export interface DisplayItemDeleteEvent {
  defDossierId: number;
  ids: number[];
  sender: number;
  room: string;
}

/** A user who has the dossier open. */
export interface DossierViewer {
  id: number;
  name: string;
  avatar: Avatar;
}

export interface DossierPresence {
  dossierId: number;
  viewers: DossierViewer[];
}

/** The answers of dossier:open and dossier:exit. */
export type PresenceAnswer = { ok: true } | { ok: false; message: string };
