import type { EntityAbilities, EnvironmentAbilities } from '@dossierbase/core';
import {
  canArchiveDossier,
  canCreateDossier,
  canDeleteDossier,
  canEditDossiers,
  canShowDossiers,
  holds,
} from './dossier';
import type { EntityScope } from './entity';
import {
  canQuickSearch,
  canSwitchActive,
  type EnvironmentAccess,
  hasCredential,
  isEnvironmentAdmin,
} from './environment';
import { canSendPopup } from './message';

// The abilities that answers carry for the signed-in user (core/api/abilities.ts), read off the rules
// of this folder: the web shows or hides actions by them and decides nothing itself. The user's own
// (without an environment) are in user.ts, which the session module can import.

export const environmentAbilities = (access: EnvironmentAccess): EnvironmentAbilities => ({
  canAdminister: isEnvironmentAdmin(access),
  canSeeReports: hasCredential(access, 'export') && access.environment.env_modules.includes('reports'),
  canSwitchActive: canSwitchActive(access.user),
  canQuickSearch: canQuickSearch(access),
  canSendPopup: canSendPopup(access),
});

const EXPORTS = ['export', 'export_csv', 'export_pdf', 'export_word', 'export_html'] as const;

export const entityAbilities = (
  scope: Pick<EntityScope, 'permissions'> & { entity: { archivable: boolean } },
): EntityAbilities => ({
  canShow: canShowDossiers(scope),
  canCreate: canCreateDossier(scope),
  canEdit: canEditDossiers(scope),
  canDelete: canDeleteDossier(scope),
  canArchive: canArchiveDossier(scope),
  canExport: EXPORTS.some((action) => holds(scope, action)),
  canExportCsv: holds(scope, 'export_csv'),
  canExportPdf: holds(scope, 'export_pdf'),
  canExportWord: holds(scope, 'export_word'),
  canExportHtml: holds(scope, 'export_html'),
  canMerge: holds(scope, 'merge'),
  canMassUpdate: holds(scope, 'massupdate'),
  canReadLog: holds(scope, 'dossierlog'),
  canSecureShare: holds(scope, 'secureshare'),
});
