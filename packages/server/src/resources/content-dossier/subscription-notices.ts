import { personName } from '@dossierbase/core';
import { sql } from 'kysely';
import type { Db } from '../../db/database';
import type { MessageNotice } from '../../db/schema';
import { canShowDossiers } from '../../policy/dossier';
import { entityPermissions } from '../../policy/entity';
import { type EnvironmentAccess, type Membership, membershipOpens } from '../../policy/environment';
import { readerSummaryKeys } from '../../policy/summary';
import { visibleSummary } from '../../query/visible-summary';
import { roomsOf } from '../../realtime/rooms';
import { insertMessage, pushUnreadCounts } from '../message/service';

// Subscriptions at work (issue 21, part 4): when someone changes, archives or deletes a dossier, each
// other subscriber who may still show it gets a notice (a normal message about the dossier), at most
// one per dossier per 10 minutes. A notice carries the summary as that subscriber may see it, and who
// made the change; the client words it in the reader's language. Notices are written in the write's
// transaction; their recipients' unread counts are pushed once it is committed (pushNotices).

const QUIET = sql`interval '10 minutes'`;

/**
 * Writes the notices of one written dossier (before a deletion takes its subscriptions with it);
 * answers the users who got one.
 */
export async function noticeSubscribers(
  trx: Db,
  access: EnvironmentAccess,
  dossierId: number,
  event: MessageNotice['event'],
): Promise<number[]> {
  const environmentId = access.environment.id;
  const subscribers = await trx
    .selectFrom('dossier_subscription as s')
    .innerJoin('app_user as u', 'u.id', 's.user_id')
    .leftJoin('environment_user as eu', (join) =>
      join.onRef('eu.environment_id', '=', 's.environment_id').onRef('eu.user_id', '=', 's.user_id'),
    )
    .selectAll('u')
    .select(sql<Membership | null>`case when eu.id is null then null else to_jsonb(eu) end`.as('membership'))
    .where('s.environment_id', '=', environmentId)
    .where('s.content_dossier_id', '=', dossierId)
    .where('s.user_id', '!=', access.user.id)
    .where('u.active', '=', true)
    .execute();
  if (subscribers.length === 0) return [];
  const dossier = await trx
    .selectFrom('content_dossier')
    .select(['id', 'def_dossier_id', 'summary', 'summaries'])
    .where('environment_id', '=', environmentId)
    .where('id', '=', dossierId)
    .executeTakeFirstOrThrow();
  const readers: { access: EnvironmentAccess; userId: number }[] = [];
  for (const { membership, ...user } of subscribers) {
    // a member deactivated or taken out of the environment hears nothing more of it
    if (membership ? !membershipOpens(user, membership) : !membershipOpens(user, { active: false })) continue;
    const reader: EnvironmentAccess = { environment: access.environment, membership, user };
    if (!canShowDossiers({ permissions: await entityPermissions(trx, reader, dossier.def_dossier_id) }))
      continue;
    readers.push({ access: reader, userId: user.id });
  }
  if (readers.length === 0) return [];
  // at most one notice per dossier per subscriber in 10 minutes: the row's time moves only when due
  const due = await trx
    .insertInto('subscription_notice')
    .values(
      readers.map((r) => ({
        environment_id: environmentId,
        user_id: r.userId,
        content_dossier_id: dossierId,
      })),
    )
    .onConflict((oc) =>
      oc
        .columns(['environment_id', 'user_id', 'content_dossier_id'])
        .doUpdateSet({ sent_at: sql`now()` })
        .where(sql<boolean>`subscription_notice.sent_at <= now() - ${QUIET}`),
    )
    .returning('user_id')
    .execute();
  const dueIds = new Set(due.map((row) => row.user_id));
  const by = personName(access.user);
  const notified: number[] = [];
  for (const reader of readers) {
    if (!dueIds.has(reader.userId)) continue;
    const keys = await readerSummaryKeys(trx, reader.access);
    const notice: MessageNotice = {
      event,
      summary: visibleSummary(dossier, keys.get(dossier.def_dossier_id)),
      def_dossier_id: dossier.def_dossier_id,
      by,
    };
    await insertMessage(
      trx,
      {
        environmentId,
        senderId: null,
        title: '',
        text: '',
        type: 'normal',
        dossierId,
        notice,
      },
      [reader.userId],
    );
    notified.push(reader.userId);
  }
  return notified;
}

/** After the write's commit: the notified subscribers' sockets get their new unread count. */
export async function pushNotices(db: Db, environmentId: number, userIds: number[]) {
  const rooms = roomsOf(db);
  if (rooms && userIds.length) await pushUnreadCounts(db, rooms, environmentId, userIds);
}
