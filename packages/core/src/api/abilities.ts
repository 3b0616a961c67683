// What the signed-in user may do, as the server decides it (packages/server/src/policy/abilities.ts).
// Answers that screens act on carry these, as Outline's presentPolicies does, so that the web shows
// or hides actions by them and never re-derives a permission rule.

/** The signed-in user's standing across environments (with the token data). */
export interface UserAbilities {
  /** create environments and use the Tools menu: super and contract admins */
  canCreateEnvironments: boolean;
}

/** The signed-in user's standing in one environment (with the environment answer). */
export interface EnvironmentAbilities {
  /**
   * super or environment admin: the admin settings, hidden entities, adding entities, every action
   * on every entity
   */
  canAdminister: boolean;
  /** the reports button: the export credential in an environment with the reports module */
  canSeeReports: boolean;
}

/** What the signed-in user may do with the dossiers of one entity (with the entity answers). */
export interface EntityAbilities {
  canShow: boolean;
  canCreate: boolean;
  canEdit: boolean;
  canDelete: boolean;
  /** the archive permission on an archivable entity (archive and dearchive) */
  canArchive: boolean;
  /** any export permission */
  canExport: boolean;
  canExportCsv: boolean;
  canExportPdf: boolean;
  canExportWord: boolean;
  canExportHtml: boolean;
  canMerge: boolean;
  canMassUpdate: boolean;
  canReadLog: boolean;
  canSecureShare: boolean;
}

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
