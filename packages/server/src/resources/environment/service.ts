import { ENVIRONMENT_MESSAGES, type Pager } from '@dossierbase/core';
import { sql } from 'kysely';
import type { Db } from '../../db/database';
import { paginate } from '../../db/paginate';
import { lockEnvironmentCreation } from '../../db/partitions';
import type { EnvironmentRow, UserRow } from '../../db/schema';
import { badRequest, forbidden, notFound } from '../../http-errors';
import { CREATOR_CREDENTIALS, createsWithoutLimit, seesAllEnvironments } from '../../policy/environment';
import { decodeLogo } from './logo';

export const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);

export async function listEnvironments(
  db: Db,
  user: UserRow,
  { limit, page, name }: { limit: number; page: number; name?: string },
): Promise<{ rows: EnvironmentRow[]; pager: Pager }> {
  let query = db.selectFrom('environment');
  if (!seesAllEnvironments(user)) {
    query = query.where(
      'id',
      'in',
      // a member deactivated in an environment no longer sees it
      db
        .selectFrom('environment_user')
        .select('environment_id')
        .where('user_id', '=', user.id)
        .where('active', '=', true),
    );
  }
  if (name?.trim()) query = query.where('name', 'ilike', `%${escapeLike(name.trim())}%`);
  return paginate(query, (q) => q.selectAll().orderBy(sql`lower(name)`).orderBy('id'), { page, limit });
}

/** How many more environments the user may create; Infinity for super admins. */
export async function environmentsLeft(db: Db, user: UserRow): Promise<number> {
  if (createsWithoutLimit(user)) return Number.POSITIVE_INFINITY;
  const now = new Date();
  const subscription = await db
    .selectFrom('subscription')
    .select(sql<number>`coalesce(sum(max_environments), 0)`.as('max'))
    .where('user_id', '=', user.id)
    .where('starts_at', '<=', now)
    .where('expires_at', '>', now)
    .executeTakeFirstOrThrow();
  const created = await db
    .selectFrom('environment')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('created_by', '=', user.id)
    .executeTakeFirstOrThrow();
  return Number(subscription.max) - Number(created.n);
}

export interface NewEnvironmentInput {
  name: string;
  description: string;
  image?: string | null;
  template?: number | null;
}

export async function createEnvironment(
  db: Db,
  user: UserRow,
  input: NewEnvironmentInput,
): Promise<EnvironmentRow> {
  const logo = input.image ? decodeLogo(input.image) : null;
  if (input.template) {
    const template = await db
      .selectFrom('template')
      .select('id')
      .where('id', '=', input.template)
      .executeTakeFirst();
    if (!template) throw badRequest({ template: 'Unknown template' });
  }
  return db.transaction().execute(async (trx) => {
    // Serialise creations per user so two parallel calls cannot both slip under the limit.
    await sql`select pg_advisory_xact_lock(${user.id})`.execute(trx);
    await lockEnvironmentCreation(trx);
    if ((await environmentsLeft(trx, user)) <= 0) throw forbidden(ENVIRONMENT_MESSAGES.limit);
    const environment = await trx
      .insertInto('environment')
      .values({
        name: input.name,
        description: input.description,
        logo: logo?.bytes ?? null,
        logo_mime: logo?.mime ?? null,
        apply_template: input.template ?? null,
        settings: {},
        created_by: user.id,
        modified_by: user.id,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('environment_user')
      .values({
        environment_id: environment.id,
        user_id: user.id,
        credentials: CREATOR_CREDENTIALS,
      })
      .execute();
    return environment;
  });
}

export async function addEnvironmentLocale(db: Db, environmentId: number, code: string) {
  const locale = await db.selectFrom('locale').selectAll().where('code', '=', code).executeTakeFirst();
  if (!locale) throw badRequest({ code: `Unknown language '${code}'` });
  const added = await db
    .insertInto('environment_locale')
    .values((eb) => ({
      environment_id: environmentId,
      locale_id: locale.id,
      rank: eb
        .selectFrom('environment_locale')
        .select(sql<number>`count(*)`.as('n'))
        .where('environment_id', '=', environmentId),
    }))
    .onConflict((oc) => oc.constraint('environment_locale_key').doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!added) throw badRequest({ code: 'This language is already added' });
  return locale;
}

/**
 * Takes a locale from the environment, with its texts in that locale (those of its language stay, for
 * its other locales). Never the last one: 400 with the message on code; 404 when it is not one of the environment.
 */
export async function removeEnvironmentLocale(db: Db, environmentId: number, code: string) {
  await db.transaction().execute(async (trx) => {
    // one removal at a time per environment, so two admins cannot each take one of the last two
    await trx
      .selectFrom('environment')
      .select('id')
      .where('id', '=', environmentId)
      .forUpdate()
      .executeTakeFirst();
    const locales = await trx
      .selectFrom('environment_locale')
      .innerJoin('locale', 'locale.id', 'environment_locale.locale_id')
      .select(['environment_locale.id', 'locale.code'])
      .where('environment_locale.environment_id', '=', environmentId)
      .execute();
    const removed = locales.find((locale) => locale.code === code);
    if (!removed) throw notFound(ENVIRONMENT_MESSAGES.unknownLanguage);
    if (locales.length <= 1) throw badRequest({ code: ENVIRONMENT_MESSAGES.lastLanguage });
    await trx.deleteFrom('environment_locale').where('id', '=', removed.id).execute();
    await trx
      .deleteFrom('environment_text')
      .where('environment_id', '=', environmentId)
      .where('locale', '=', code)
      .execute();
  });
}
