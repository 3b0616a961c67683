import type { EntityAbilities, EnvironmentAbilities } from '@dossierbase/core';
import {
  canArchiveDossier,
  canCreateDossier,
  canDeleteDossier,
  canEditDossiers,
  canExportAny,
  canExportAs,
  canShowDossiers,
  holds,
} from './dossier';
import type { EntityScope } from './entity';
import {
  canQuickSearch,
  canSwitchActive,
  canUseHourRegistration,
  type EnvironmentAccess,
  hasCredential,
  isEnvironmentAdmin,
} from './environment';
import { canSeeGanttWarnings } from './gantt';
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
  canUseHourRegistration: canUseHourRegistration(access),
  canSeeGanttWarnings: canSeeGanttWarnings(access),
});

export const entityAbilities = (
  scope: Pick<EntityScope, 'permissions'> & { entity: { archivable: boolean } },
): EntityAbilities => ({
  canShow: canShowDossiers(scope),
  canCreate: canCreateDossier(scope),
  canEdit: canEditDossiers(scope),
  canDelete: canDeleteDossier(scope),
  canArchive: canArchiveDossier(scope),
  canExport: canExportAny(scope),
  canExportCsv: canExportAs(scope, 'export_csv'),
  canExportPdf: canExportAs(scope, 'export_pdf'),
  canExportWord: canExportAs(scope, 'export_word'),
  canExportHtml: canExportAs(scope, 'export_html'),
  canMerge: holds(scope, 'merge'),
  canMassUpdate: holds(scope, 'massupdate'),
  canReadLog: holds(scope, 'dossierlog'),
  canSecureShare: holds(scope, 'secureshare'),
});
