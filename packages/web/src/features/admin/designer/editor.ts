import type { DisplayItem, DisplayPosition } from '@dossierbase/core';

/** Which editor the field designer has open. */
export type Editor =
  | { kind: 'data'; id?: number }
  | { kind: 'base'; id?: number }
  | { kind: 'link'; id?: number }
  | { kind: 'display'; item?: DisplayItem; position?: number; rank?: number }
  | { kind: 'position'; position?: DisplayPosition }
  | { kind: 'views' }
  | null;
