// The contract every view of an embedded list implements (list, calendar, kanban, timeline, gantt,
// hour registration). A view fetches what it needs itself through the API: the link's settings
// (GET /defdossierlink/{linkId}), the child entity's view settings and its dossiers (the list call
// with embedded={parentDossierId}&linkId={linkId}).

/** Ids are numbers, as everywhere in the web client. */
export interface LinkedViewProps {
  environmentId: number;
  /** The dossier the embedded list is shown in. */
  parentDossierId: number;
  /** The link (def dossier link) whose linked dossiers are shown. */
  linkId: number;
  /** The child entity (the link's child def dossier). */
  entityId: number;
}

/** The views a link may offer (link setting `views`, spec doc 3 section 5). */
export const LINKED_VIEW_NAMES = [
  'list',
  'calendar',
  'kanban',
  'timeline',
  'gantt',
  'hourregistration',
] as const;

export type LinkedViewName = (typeof LINKED_VIEW_NAMES)[number];

export function isLinkedViewName(value: unknown): value is LinkedViewName {
  return typeof value === 'string' && (LINKED_VIEW_NAMES as readonly string[]).includes(value);
}
