import { PERMISSION_ACTIONS, type PermissionAction } from '@dossierbase/core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildPermission } from '../../test/entity-factories';
import { addMember, buildDefDossier, buildEnvironment, buildRole, buildUser } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/test-app';
import { HttpError } from '../http-errors';
import {
  authorize,
  canArchiveDossier,
  canCreateDossier,
  canDeleteDossier,
  canEditDossiers,
  canShowDossiers,
  holds,
  holdsCredential,
  isReadOnly,
} from './dossier';
import { openEntityScope } from './entity';

const scope = (actions: PermissionAction[], archivable = true) => ({
  permissions: new Set(actions),
  entity: { archivable },
});

describe('dossier gates, decided from the actions on the entity', () => {
  test('each gate asks for its own action', () => {
    const gates = [
      [canShowDossiers, 'show'],
      [canCreateDossier, 'create'],
      [canEditDossiers, 'edit'],
      [canDeleteDossier, 'delete'],
    ] as const;
    for (const [gate, action] of gates) {
      expect(gate(scope([action])), action).toBe(true);
      expect(gate(scope(PERMISSION_ACTIONS.filter((a) => a !== action))), `all but ${action}`).toBe(false);
    }
    expect(holds(scope(['export_csv']), 'export_csv')).toBe(true);
    expect(holds(scope([]), 'show')).toBe(false);
  });

  test('archive needs the permission and an archivable entity', () => {
    expect(canArchiveDossier(scope(['archive']))).toBe(true);
    expect(canArchiveDossier(scope(['archive'], false))).toBe(false);
    expect(canArchiveDossier(scope([...PERMISSION_ACTIONS], false))).toBe(false);
    expect(canArchiveDossier(scope(['show', 'edit']))).toBe(false);
  });

  test('an archived dossier is read-only; is-credential-allowed refuses edit of one', () => {
    const archived = { archived: true };
    const open = { archived: false };
    expect(isReadOnly(archived)).toBe(true);
    expect(isReadOnly(open)).toBe(false);
    expect(holdsCredential(scope(['edit']), 'edit')).toBe(true);
    expect(holdsCredential(scope(['edit']), 'edit', open)).toBe(true);
    expect(holdsCredential(scope(['edit']), 'edit', archived)).toBe(false);
    expect(holdsCredential(scope(['delete']), 'delete', archived)).toBe(true);
    expect(holdsCredential(scope(['delete']), 'edit')).toBe(false);
    expect(holdsCredential(scope([...PERMISSION_ACTIONS]), 'no_such_credential')).toBe(false);
  });

  test('authorize answers 403 unless allowed', () => {
    expect(() => authorize(true)).not.toThrow();
    try {
      authorize(false);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(HttpError);
      expect((error as HttpError).statusCode).toBe(403);
    }
  });
});

describe('dossier gates on the scopes the server loads', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  test('an environment admin passes every gate; a member those of their roles', async () => {
    const [admin, member] = await Promise.all([buildUser(t.db), buildUser(t.db)]);
    const environment = await buildEnvironment(t.db, {
      members: [{ user: admin, credentials: ['environment-admin'] }],
    });
    const role = await buildRole(t.db, environment.id);
    await addMember(t.db, environment.id, { user: member, roleIds: [role.id] });
    const entity = await buildDefDossier(t.db, environment.id, { name: 'Case' });
    await t.db.updateTable('def_dossier').set({ archivable: true }).where('id', '=', entity.id).execute();
    await buildPermission(t.db, entity, role.id, ['show', 'edit']);

    const adminScope = await openEntityScope(t.db, admin, entity.id);
    for (const gate of [
      canShowDossiers,
      canCreateDossier,
      canEditDossiers,
      canDeleteDossier,
      canArchiveDossier,
    ])
      expect(gate(adminScope), gate.name).toBe(true);

    const memberScope = await openEntityScope(t.db, member, entity.id);
    expect(canShowDossiers(memberScope)).toBe(true);
    expect(canEditDossiers(memberScope)).toBe(true);
    expect(canCreateDossier(memberScope)).toBe(false);
    expect(canDeleteDossier(memberScope)).toBe(false);
    expect(canArchiveDossier(memberScope)).toBe(false);
  });
});
