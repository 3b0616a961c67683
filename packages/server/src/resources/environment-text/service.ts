import {
  CATALOGUE_LANGUAGES,
  catalogueEntries,
  ENVIRONMENT_TEXT_MESSAGES,
  type EnvironmentText,
} from '@dossierbase/core';
import { sql } from 'kysely';
import en from '../../../../web/src/i18n/en.json' with { type: 'json' };
import type { Db } from '../../db/database';
import { badRequest, notFound } from '../../http-errors';

// The keys an environment may reword: every text of the web client's English catalogue, which each
// of the other catalogues matches key for key (the web's i18n test holds them to it).
const TEXT_KEYS = new Set(catalogueEntries(en).map(([key]) => key));

const TEXT_COLUMNS = ['locale', 'key', 'value'] as const;

/** The language of a locale (nl of nl_NL); a language is its own. */
const languageOf = (locale: string) => locale.split('_')[0];

/** The texts of a locale: its language's, then its own, which win where both reword a key. */
export function listEnvironmentTexts(
  db: Db,
  environmentId: number,
  locale: string,
): Promise<EnvironmentText[]> {
  return db
    .selectFrom('environment_text')
    .select(TEXT_COLUMNS)
    .where('environment_id', '=', environmentId)
    .where('locale', 'in', [...new Set([languageOf(locale), locale])])
    .orderBy(sql`locale = ${locale}`)
    .orderBy('key')
    .execute();
}

/** A text may be reworded in a catalogue's language or a locale of the environment, for a known key. */
async function checkText(db: Db, environmentId: number, locale: string, key: string) {
  if (!TEXT_KEYS.has(key)) throw badRequest({ key: `${ENVIRONMENT_TEXT_MESSAGES.unknownKey} '${key}'` });
  if ((CATALOGUE_LANGUAGES as readonly string[]).includes(locale)) return;
  const own = await db
    .selectFrom('environment_locale')
    .innerJoin('locale', 'locale.id', 'environment_locale.locale_id')
    .select('locale.code')
    .where('environment_locale.environment_id', '=', environmentId)
    .where('locale.code', '=', locale)
    .executeTakeFirst();
  if (!own) throw badRequest({ locale: ENVIRONMENT_TEXT_MESSAGES.unknownLocale });
}

export async function saveEnvironmentText(
  db: Db,
  text: { environmentId: number; locale: string; key: string; value: string; userId: number },
): Promise<EnvironmentText> {
  await checkText(db, text.environmentId, text.locale, text.key);
  return db
    .insertInto('environment_text')
    .values({
      environment_id: text.environmentId,
      locale: text.locale,
      key: text.key,
      value: text.value,
      modified_by: text.userId,
    })
    .onConflict((oc) =>
      oc
        .columns(['environment_id', 'locale', 'key'])
        .doUpdateSet({ value: text.value, modified_by: text.userId, modified_at: sql`now()` }),
    )
    .returning(TEXT_COLUMNS)
    .executeTakeFirstOrThrow();
}

/** Back to the catalogue's text; 404 when the environment had not reworded it. */
export async function deleteEnvironmentText(db: Db, environmentId: number, locale: string, key: string) {
  const deleted = await db
    .deleteFrom('environment_text')
    .where('environment_id', '=', environmentId)
    .where('locale', '=', locale)
    .where('key', '=', key)
    .returning('key')
    .executeTakeFirst();
  if (!deleted) throw notFound();
}
