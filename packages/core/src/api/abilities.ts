import { z } from 'zod';

// What the signed-in user may do, as the server decides it (packages/server/src/policy/abilities.ts).
// Answers that screens act on carry these, as Outline's presentPolicies does, so that the web shows
// or hides actions by them and never re-derives a permission rule.

/** The signed-in user's standing across environments (with the token data). */
export const userAbilitiesSchema = z.object({
  /** create environments and use the Tools menu: super and contract admins */
  canCreateEnvironments: z.boolean(),
  /** hold subscriptions (their screen and the notice when the last one expired): contract admins */
  canHoldSubscriptions: z.boolean(),
});
export type UserAbilities = z.infer<typeof userAbilitiesSchema>;

/** The signed-in user's standing in one environment (with the environment answer). */
export const environmentAbilitiesSchema = z.object({
  /**
   * super or environment admin: the admin settings, hidden entities, adding entities, every action
   * on every entity
   */
  canAdminister: z.boolean(),
  /** the reports button: the export credential in an environment with the reports module */
  canSeeReports: z.boolean(),
  /** switch the environment off and on again: super admins (its admins could not reopen it) */
  canSwitchActive: z.boolean(),
  /** the top bar's quick search: the quick_search credential (admins pass, as every entity check) */
  canQuickSearch: z.boolean(),
  /** send pop-up messages: super admins, the environment's admins and contract admins */
  canSendPopup: z.boolean(),
  /** the hour registration view of embedded lists: the environment's hour registration module */
  canUseHourRegistration: z.boolean(),
  /** the gantt warning that lists projects without dates: admins, environment admins, contract admins */
  canSeeGanttWarnings: z.boolean(),
});
export type EnvironmentAbilities = z.infer<typeof environmentAbilitiesSchema>;

/** What the signed-in user may do with the dossiers of one entity (with the entity answers). */
export const entityAbilitiesSchema = z.object({
  canShow: z.boolean(),
  canCreate: z.boolean(),
  canEdit: z.boolean(),
  canDelete: z.boolean(),
  /** the archive permission on an archivable entity (archive and dearchive) */
  canArchive: z.boolean(),
  /** any export permission */
  canExport: z.boolean(),
  canExportCsv: z.boolean(),
  canExportPdf: z.boolean(),
  canExportWord: z.boolean(),
  canExportHtml: z.boolean(),
  canMerge: z.boolean(),
  canMassUpdate: z.boolean(),
  canReadLog: z.boolean(),
  canSecureShare: z.boolean(),
});
export type EntityAbilities = z.infer<typeof entityAbilitiesSchema>;

/** Nothing allowed: what a screen assumes until the answer is there. */
export const NO_ENTITY_ABILITIES: EntityAbilities = {
  canShow: false,
  canCreate: false,
  canEdit: false,
  canDelete: false,
  canArchive: false,
  canExport: false,
  canExportCsv: false,
  canExportPdf: false,
  canExportWord: false,
  canExportHtml: false,
  canMerge: false,
  canMassUpdate: false,
  canReadLog: false,
  canSecureShare: false,
};
