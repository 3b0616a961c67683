import { randomBytes } from 'node:crypto';
import { hashPassword } from './auth/passwords';
import type { Config } from './config';
import type { Db } from './db/database';
import { lockEnvironmentCreation } from './db/partitions';

export interface SeedResult {
  created: boolean;
  /** Passwords that were generated (not given by the environment), to print once. */
  generated: { username: string; password: string }[];
}

const generatePassword = () => randomBytes(12).toString('base64url');

/** First start only: a 'Demo' environment with the super admin `admin` and the user `demo`. */
export async function seedDemo(
  db: Db,
  config: Pick<Config, 'adminPassword' | 'demoPassword'>,
): Promise<SeedResult> {
  const anyUser = await db.selectFrom('app_user').select('id').limit(1).executeTakeFirst();
  if (anyUser) return { created: false, generated: [] };
  const generated: SeedResult['generated'] = [];
  const adminPassword = config.adminPassword ?? generatePassword();
  const demoPassword = config.demoPassword ?? generatePassword();
  if (!config.adminPassword) generated.push({ username: 'admin', password: adminPassword });
  if (!config.demoPassword) generated.push({ username: 'demo', password: demoPassword });

  await db.transaction().execute(async (trx) => {
    const admin = await trx
      .insertInto('app_user')
      .values({
        username: 'admin',
        email: 'admin@dossierbase.local',
        password_hash: await hashPassword(adminPassword),
        first_name: 'Demo',
        last_name: 'Administrator',
        roles: ['ROLE_USER', 'ROLE_ADMIN'],
        locale: null,
        private_settings: { presence: 'online' },
        otp_secret: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const demo = await trx
      .insertInto('app_user')
      .values({
        username: 'demo',
        email: 'demo@dossierbase.local',
        password_hash: await hashPassword(demoPassword),
        first_name: 'Demo',
        last_name: 'User',
        roles: ['ROLE_USER'],
        locale: null,
        private_settings: { presence: 'online' },
        otp_secret: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await lockEnvironmentCreation(trx);
    const environment = await trx
      .insertInto('environment')
      .values({
        name: 'Demo',
        description: 'A demonstration environment to explore Dossierbase.',
        settings: {},
        logo: null,
        logo_mime: null,
        apply_template: null,
        created_by: admin.id,
        modified_by: admin.id,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const locales = await trx
      .selectFrom('locale')
      .select(['id', 'code'])
      .where('code', 'in', ['en_GB', 'nl_NL'])
      .execute();
    await trx
      .insertInto('environment_locale')
      .values(
        locales.map((l) => ({
          environment_id: environment.id,
          locale_id: l.id,
          rank: l.code === 'en_GB' ? 0 : 1,
        })),
      )
      .execute();
    const [caseworker] = await trx
      .insertInto('role')
      .values([
        { environment_id: environment.id, name: 'Caseworker', translations: '[]' },
        { environment_id: environment.id, name: 'Manager', translations: '[]' },
      ])
      .returning('id')
      .execute();
    await trx
      .insertInto('environment_user')
      .values([
        {
          environment_id: environment.id,
          user_id: admin.id,
          credentials: ['environment-admin', 'export', 'quick_search'],
          role_ids: [],
        },
        {
          environment_id: environment.id,
          user_id: demo.id,
          credentials: ['quick_search'],
          role_ids: [caseworker.id],
        },
      ])
      .execute();
    const entity = (type: 'main' | 'other' | 'hidden', rank: number, singular: string, plural: string) => ({
      environment_id: environment.id,
      type,
      rank,
      translations: [
        { culture: 'en_GB', name: plural, name_singular: singular, name_plural: plural },
        { culture: 'nl_NL', name: plural, name_singular: singular, name_plural: plural },
      ],
      settings: {},
    });
    const entities = await trx
      .insertInto('def_dossier')
      .values([
        entity('main', 0, 'Client', 'Clients'),
        entity('main', 1, 'Case', 'Cases'),
        entity('other', 0, 'Organisation', 'Organisations'),
        entity('hidden', 0, 'Setting', 'Settings'),
      ])
      .returning(['id', 'type'])
      .execute();
    // Caseworkers work with every visible entity; the hidden one stays for admins.
    await trx
      .insertInto('permission')
      .values(
        entities
          .filter((e) => e.type !== 'hidden')
          .map((e) => ({
            environment_id: environment.id,
            def_dossier_id: e.id,
            role_id: caseworker.id,
            actions: ['show', 'create', 'edit', 'export', 'dossierlog'],
          })),
      )
      .execute();
  });
  return { created: true, generated };
}
