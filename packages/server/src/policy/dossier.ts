import type { PermissionAction } from '@dossierbase/core';
import { forbidden } from '../http-errors';
import type { EntityScope } from './entity';

// What a user may do with the dossiers of one entity. The scope carries their actions on the entity
// (policy/entity.ts loads them: every action for super and environment admins, otherwise the union of
// their roles' permissions); these functions decide from it and load nothing.

type Actions = Pick<EntityScope, 'permissions'>;
type ArchiveScope = { permissions: EntityScope['permissions']; entity: { archivable: boolean } };

/** The user holds `action` on the entity's dossiers. */
export const holds = (scope: Actions, action: PermissionAction) => scope.permissions.has(action);

export const canShowDossiers = (scope: Actions) => holds(scope, 'show');
export const canCreateDossier = (scope: Actions) => holds(scope, 'create');
export const canEditDossiers = (scope: Actions) => holds(scope, 'edit');
export const canDeleteDossier = (scope: Actions) => holds(scope, 'delete');

export type ExportAction = 'export_csv' | 'export_pdf' | 'export_word' | 'export_html';

/**
 * Export in one kind: its own permission, or `export`, which grants every kind (spec document 2
 * section 4: "Export needs any export permission").
 */
export const canExportAs = (scope: Actions, action: ExportAction) =>
  holds(scope, 'export') || holds(scope, action);

/** Any export at all (the export button). */
export const canExportAny = (scope: Actions) =>
  (['export_csv', 'export_pdf', 'export_word', 'export_html'] as const).some((a) => canExportAs(scope, a));

/** Archive and dearchive: the permission, on an entity whose dossiers can be archived. */
export const canArchiveDossier = (scope: ArchiveScope) => scope.entity.archivable && holds(scope, 'archive');

/** An archived dossier is read-only until it is dearchived. */
export const isReadOnly = (dossier: { archived: boolean }) => dossier.archived;

/**
 * is-credential-allowed: `credential` (a permission action) on the entity and, for one dossier, not
 * edit of an archived one. An unknown credential is held by nobody.
 */
export const holdsCredential = (scope: Actions, credential: string, dossier?: { archived: boolean }) =>
  scope.permissions.has(credential as PermissionAction) &&
  !(credential === 'edit' && dossier !== undefined && isReadOnly(dossier));

/** 403 unless the policy allowed it. */
export function authorize(allowed: boolean): void {
  if (!allowed) throw forbidden();
}
