import type { Migration } from 'kysely';
import * as foundation from './2026-11-21T2340-foundation';
import * as entityConfiguration from './2026-11-22T0020-entity-configuration';
import * as dossierRecords from './2026-11-22T0045-dossier-records';
import * as files from './2026-11-22T0300-files';
import * as entityDataVersion from './2026-11-22T0305-entity-data-version';
import * as configVersion from './2026-11-22T0310-config-version';
import * as userSession from './2026-11-23T1000-user-session';
import * as passwordResetRequest from './2026-11-24T0900-password-reset-request';
import * as fileChunks from './2026-11-24T0910-file-chunks';
import * as summaryVariants from './2026-11-24T0930-summary-variants';
import * as dataVersionOfDeletedEntities from './2026-11-24T1000-data-version-of-deleted-entities';
import * as summaryTextsStatistics from './2026-11-24T1010-summary-texts-statistics';
import * as summaryVariantsTextIndex from './2026-11-24T1020-summary-variants-text-index';
import * as exportHtmlPermission from './2026-11-25T1300-export-html-permission';
import * as summaryRefresh from './2026-11-25T1400-summary-refresh';
import * as fieldRoleVisibility from './2026-11-25T1410-field-role-visibility';
import * as dossiersPartitionedByEnvironment from './2026-11-25T1500-dossiers-partitioned-by-environment';
import * as dossierCounters from './2026-11-25T1600-dossier-counters';
import * as environmentText from './2026-11-25T1700-environment-text';
import * as environmentUserActive from './2026-11-26T0900-environment-user-active';
import * as subscriptionUserLimit from './2026-11-26T0910-subscription-user-limit';
import * as profileAndAvatar from './2026-11-26T1300-profile-and-avatar';
import * as userActivity from './2026-11-27T1100-user-activity';
import * as subscriptionOrder from './2026-11-27T1110-subscription-order';
import * as twoFactorAndPolicy from './2026-11-27T1120-two-factor-and-policy';
import * as sessionDetails from './2026-11-27T1130-session-details';
import * as dossierLogShown from './2026-11-28T1100-dossier-log-shown';
import * as dossierQuery from './2026-11-28T1200-dossier-query';
import * as dashboardBlocks from './2026-11-28T1210-dashboard-blocks';
import * as messages from './2026-11-28T1220-messages';
import * as dashboardRollups from './2026-11-28T1840-dashboard-rollups';
import * as dashboardDayRollups from './2026-11-29T0100-dashboard-day-rollups';
import * as signedInRead from './2026-11-29T0500-signed-in-read';
import * as fixedUsernames from './2026-11-29T1400-fixed-usernames';
import * as fixedEntityEnvironments from './2026-11-29T1500-fixed-entity-environments';

// Listed by hand so the migrator needs no file-system scan. Kysely runs them in name order,
// so every name starts with its UTC date and time.
export const migrations: Record<string, Migration> = {
  '2026-11-21T2340-foundation': foundation,
  '2026-11-22T0020-entity-configuration': entityConfiguration,
  '2026-11-22T0045-dossier-records': dossierRecords,
  '2026-11-22T0300-files': files,
  '2026-11-22T0305-entity-data-version': entityDataVersion,
  '2026-11-22T0310-config-version': configVersion,
  '2026-11-23T1000-user-session': userSession,
  '2026-11-24T0900-password-reset-request': passwordResetRequest,
  '2026-11-24T0910-file-chunks': fileChunks,
  '2026-11-24T0930-summary-variants': summaryVariants,
  '2026-11-24T1000-data-version-of-deleted-entities': dataVersionOfDeletedEntities,
  '2026-11-24T1010-summary-texts-statistics': summaryTextsStatistics,
  '2026-11-24T1020-summary-variants-text-index': summaryVariantsTextIndex,
  '2026-11-25T1300-export-html-permission': exportHtmlPermission,
  '2026-11-25T1400-summary-refresh': summaryRefresh,
  '2026-11-25T1410-field-role-visibility': fieldRoleVisibility,
  '2026-11-25T1500-dossiers-partitioned-by-environment': dossiersPartitionedByEnvironment,
  '2026-11-25T1600-dossier-counters': dossierCounters,
  '2026-11-25T1700-environment-text': environmentText,
  '2026-11-26T0900-environment-user-active': environmentUserActive,
  '2026-11-26T0910-subscription-user-limit': subscriptionUserLimit,
  '2026-11-26T1300-profile-and-avatar': profileAndAvatar,
  '2026-11-27T1100-user-activity': userActivity,
  '2026-11-27T1110-subscription-order': subscriptionOrder,
  '2026-11-27T1120-two-factor-and-policy': twoFactorAndPolicy,
  '2026-11-27T1130-session-details': sessionDetails,
  '2026-11-28T1100-dossier-log-shown': dossierLogShown,
  '2026-11-28T1200-dossier-query': dossierQuery,
  '2026-11-28T1210-dashboard-blocks': dashboardBlocks,
  '2026-11-28T1220-messages': messages,
  '2026-11-28T1840-dashboard-rollups': dashboardRollups,
  '2026-11-29T0100-dashboard-day-rollups': dashboardDayRollups,
  '2026-11-29T0500-signed-in-read': signedInRead,
  '2026-11-29T1400-fixed-usernames': fixedUsernames,
  '2026-11-29T1500-fixed-entity-environments': fixedEntityEnvironments,
};
