import { NO_ENTITY_ABILITIES, PERMISSION_ACTIONS, type PermissionAction } from '@dossierbase/core';
import { describe, expect, test } from 'vitest';
import { entityAbilities, environmentAbilities } from './abilities';
import type { EnvironmentAccess } from './environment';
import { userAbilities } from './user';

const access = (user: string[], credentials: string[] | null, modules: string[] = []) =>
  ({
    user: { id: 1, roles: user },
    environment: { id: 1, env_modules: modules },
    membership: credentials === null ? null : { credentials, role_ids: [] },
  }) as unknown as EnvironmentAccess;

const scope = (actions: readonly PermissionAction[], archivable = false) => ({
  permissions: new Set(actions),
  entity: { archivable },
});

describe('userAbilities', () => {
  test('super and contract admins create environments; contract admins hold subscriptions', () => {
    expect(userAbilities({ roles: ['ROLE_USER', 'ROLE_ADMIN'] })).toEqual({
      canCreateEnvironments: true,
      canHoldSubscriptions: false,
    });
    expect(userAbilities({ roles: ['ROLE_CONTRACT_ADMIN'] })).toEqual({
      canCreateEnvironments: true,
      canHoldSubscriptions: true,
    });
    expect(userAbilities({ roles: ['ROLE_USER', 'ROLE_AZURE_USER'] })).toEqual({
      canCreateEnvironments: false,
      canHoldSubscriptions: false,
    });
  });
});

describe('environmentAbilities', () => {
  test('environment admins and super admins administer; members do not', () => {
    expect(environmentAbilities(access(['ROLE_USER'], ['environment-admin'])).canAdminister).toBe(true);
    expect(environmentAbilities(access(['ROLE_ADMIN'], null)).canAdminister).toBe(true);
    expect(environmentAbilities(access(['ROLE_USER'], ['export', 'quick_search'])).canAdminister).toBe(false);
    expect(environmentAbilities(access(['ROLE_CONTRACT_ADMIN'], [])).canAdminister).toBe(false);
  });

  test('reports need the export credential and the reports module', () => {
    expect(environmentAbilities(access(['ROLE_USER'], ['export'], ['reports'])).canSeeReports).toBe(true);
    expect(environmentAbilities(access(['ROLE_USER'], ['export'], [])).canSeeReports).toBe(false);
    expect(environmentAbilities(access(['ROLE_USER'], [], ['reports'])).canSeeReports).toBe(false);
  });

  test('quick search needs the quick_search credential; admins pass, as every entity check', () => {
    expect(environmentAbilities(access(['ROLE_USER'], ['quick_search'])).canQuickSearch).toBe(true);
    expect(environmentAbilities(access(['ROLE_USER'], ['export'])).canQuickSearch).toBe(false);
    expect(environmentAbilities(access(['ROLE_USER'], ['environment-admin'])).canQuickSearch).toBe(true);
    expect(environmentAbilities(access(['ROLE_ADMIN'], null)).canQuickSearch).toBe(true);
  });
});

describe('entityAbilities', () => {
  test('nothing without permissions', () => {
    expect(entityAbilities(scope([]))).toEqual(NO_ENTITY_ABILITIES);
  });

  test('each permission gives its ability; export is any export permission', () => {
    expect(entityAbilities(scope(['show', 'create', 'edit', 'delete']))).toEqual({
      ...NO_ENTITY_ABILITIES,
      canShow: true,
      canCreate: true,
      canEdit: true,
      canDelete: true,
    });
    for (const action of ['export', 'export_csv', 'export_pdf', 'export_word', 'export_html'] as const)
      expect(entityAbilities(scope([action])).canExport, action).toBe(true);
    expect(entityAbilities(scope(['export_html']))).toEqual({
      ...NO_ENTITY_ABILITIES,
      canExport: true,
      canExportHtml: true,
    });
    expect(entityAbilities(scope(['merge', 'massupdate', 'dossierlog', 'secureshare']))).toEqual({
      ...NO_ENTITY_ABILITIES,
      canMerge: true,
      canMassUpdate: true,
      canReadLog: true,
      canSecureShare: true,
    });
  });

  test('archive needs the permission and an archivable entity', () => {
    expect(entityAbilities(scope(['archive'], true)).canArchive).toBe(true);
    expect(entityAbilities(scope(['archive'], false)).canArchive).toBe(false);
    expect(entityAbilities(scope(PERMISSION_ACTIONS, false)).canArchive).toBe(false);
    expect(entityAbilities(scope(['show'], true)).canArchive).toBe(false);
  });
});
