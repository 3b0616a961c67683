import {
  ENVIRONMENT_SETTINGS_MESSAGES,
  type EnvironmentModule,
  type EnvironmentModuleInput,
  type EnvironmentPatch,
} from '@dossierbase/core';
import type { Db } from '../../db/database';
import type { EnvironmentRow, UserRow } from '../../db/schema';
import { badRequest, notFound } from '../../http-errors';
import { canSwitchActive, requireEnvironmentAdmin } from '../../policy/environment';
import { decodeLogo } from './logo';

// An environment's own settings, changed by its admins: name, description, logo, help contact and
// accent colour (/environment/edit, /layout), its modules (/modules); whether it is active, by super
// admins only (an inactive environment opens for nobody, so its admins could not switch it back).

/** The environment for a change: its admins, or one who may switch it back on even while it is inactive. */
async function changedEnvironment(db: Db, user: UserRow, id: number): Promise<EnvironmentRow> {
  if (!canSwitchActive(user)) return (await requireEnvironmentAdmin(db, user, id)).environment;
  const row = await db.selectFrom('environment').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound();
  return row;
}

const settingsOf = (row: EnvironmentRow) => (row.settings ?? {}) as Record<string, unknown>;

export async function updateEnvironment(
  db: Db,
  user: UserRow,
  id: number,
  patch: EnvironmentPatch,
): Promise<EnvironmentRow> {
  if (patch.active !== undefined && !canSwitchActive(user))
    throw badRequest({ active: ENVIRONMENT_SETTINGS_MESSAGES.superAdminOnly });
  const row = await changedEnvironment(db, user, id);
  const logo = patch.image ? decodeLogo(patch.image) : null;
  const settings = { ...settingsOf(row) };
  if (patch.help_contact !== undefined) settings.help_contact = patch.help_contact;
  if (patch.color !== undefined) settings.color = patch.color;
  return db
    .updateTable('environment')
    .set({
      ...(patch.name !== undefined ? { name: patch.name } : {}),
      ...(patch.description !== undefined ? { description: patch.description } : {}),
      ...(patch.active !== undefined ? { active: patch.active } : {}),
      ...(patch.image !== undefined ? { logo: logo?.bytes ?? null, logo_mime: logo?.mime ?? null } : {}),
      settings,
      modified_by: user.id,
      modified_at: new Date(),
    })
    .where('id', '=', row.id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Switches a module on or off with its settings (kept while it is off, for switching it back on). */
export async function setEnvironmentModule(
  db: Db,
  user: UserRow,
  id: number,
  name: EnvironmentModule,
  input: EnvironmentModuleInput,
): Promise<EnvironmentRow> {
  const row = await changedEnvironment(db, user, id);
  const entities = [...new Set(input.entities ?? [])];
  if (entities.length) {
    const known = await db
      .selectFrom('def_dossier')
      .select('id')
      .where('environment_id', '=', row.id)
      .where('id', 'in', entities)
      .execute();
    if (known.length !== entities.length)
      throw badRequest({ entities: ENVIRONMENT_SETTINGS_MESSAGES.unknownEntity });
  }
  const settings = settingsOf(row);
  const modules = { ...((settings.modules ?? {}) as Record<string, unknown>) };
  if (input.entities !== undefined) modules[name] = { entities };
  const enabled = new Set(row.env_modules);
  if (input.enabled) enabled.add(name);
  else enabled.delete(name);
  return db
    .updateTable('environment')
    .set({
      env_modules: [...enabled].sort(),
      settings: { ...settings, modules },
      modified_by: user.id,
      modified_at: new Date(),
    })
    .where('id', '=', row.id)
    .returningAll()
    .executeTakeFirstOrThrow();
}
