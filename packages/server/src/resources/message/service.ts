import {
  MAX_MESSAGE_RECIPIENTS,
  MESSAGE_MESSAGES,
  MESSAGE_TEXT_MAX,
  MESSAGE_TITLE_MAX,
  type Message,
  type MessageListQuery,
  type MessagePage,
  type MessageSend,
  makePager,
  personName,
  REQUIRED_MESSAGE,
  UNREAD_EVENT,
  type UnreadEvent,
} from '@dossierbase/core';
import { sql } from 'kysely';
import type { Db } from '../../db/database';
import type { MessageNotice, UserRow } from '../../db/schema';
import { openableEnvironmentIds } from '../../db/user-environments';
import { badRequest, notFound } from '../../http-errors';
import { authorize } from '../../policy/dossier';
import { openEnvironment } from '../../policy/environment';
import { canReadMessage, canSendPopup } from '../../policy/message';
import type { RealtimeRooms } from '../../realtime/rooms';
import { sanitiseStoredRichText } from '../../sanitise/rich-text';
import { openDossier } from '../content-dossier/read-model';

// Messages between the members of an environment (POST, GET /api/message ...). The unread count of a
// recipient is pushed to their sockets after every change of it (UNREAD_EVENT), and read by the client
// every 100 s besides.

const hasText = (html: string) => /<img\b/i.test(html) || html.replace(/<[^>]*>|&nbsp;|\s/g, '') !== '';

/** The active members among `userIds` who may open the environment. */
async function activeMembers(db: Db, environmentId: number, userIds: number[]) {
  if (userIds.length === 0) return new Set<number>();
  const rows = await db
    .selectFrom('environment_user as eu')
    .innerJoin('app_user as u', 'u.id', 'eu.user_id')
    .select('eu.user_id')
    .where('eu.environment_id', '=', environmentId)
    .where('eu.user_id', 'in', userIds)
    .where('eu.active', '=', true)
    .where('u.active', '=', true)
    .execute();
  return new Set(rows.map((row) => row.user_id));
}

export async function unreadCount(db: Db, environmentId: number, userId: number): Promise<number> {
  const row = await db
    .selectFrom('message_recipient')
    .select((eb) => eb.fn.countAll<string>().as('total'))
    .where('environment_id', '=', environmentId)
    .where('user_id', '=', userId)
    .where('read_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.total);
}

/** Tells each user's sockets their unread count in the environment (after the change is committed). */
export async function pushUnreadCounts(
  db: Db,
  rooms: RealtimeRooms,
  environmentId: number,
  userIds: number[],
) {
  for (const userId of new Set(userIds)) {
    const event: UnreadEvent = {
      environment: environmentId,
      total: await unreadCount(db, environmentId, userId),
    };
    rooms.toUser(userId, UNREAD_EVENT, event);
  }
}

/** Inserts a message with its recipients (in the caller's transaction). */
export async function insertMessage(
  db: Db,
  message: {
    environmentId: number;
    senderId: number | null;
    title: string;
    text: string;
    type: 'normal' | 'popup';
    dossierId: number | null;
    notice?: MessageNotice;
  },
  recipients: number[],
): Promise<number> {
  const row = await db
    .insertInto('message')
    .values({
      environment_id: message.environmentId,
      sender_id: message.senderId,
      title: message.title,
      message_text: message.text,
      type: message.type,
      content_dossier_id: message.dossierId,
      notice: message.notice ? JSON.stringify(message.notice) : null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const id = Number(row.id);
  await db
    .insertInto('message_recipient')
    .values(
      recipients.map((userId) => ({
        environment_id: message.environmentId,
        message_id: id,
        user_id: userId,
      })),
    )
    .execute();
  return id;
}

/**
 * Sends a message to members of the environment: 400 per field (to, title, message) for what is
 * missing or wrong, a recipient who is not an active member included; 403 for a pop-up from someone
 * who may not send one; the dossier must be one the sender may show in the same environment (404).
 */
export async function sendMessage(db: Db, rooms: RealtimeRooms, user: UserRow, body: MessageSend) {
  const access = await openEnvironment(db, user, body.environment);
  const environmentId = access.environment.id;
  if (body.type === 'popup') authorize(canSendPopup(access));
  const errors: Record<string, string> = {};
  const title = body.title.trim();
  if (title === '') errors.title = REQUIRED_MESSAGE;
  else if (title.length > MESSAGE_TITLE_MAX) errors.title = MESSAGE_MESSAGES.titleTooLong;
  const text = await sanitiseStoredRichText(db, environmentId, body.messageText);
  if (!hasText(text)) errors.message = REQUIRED_MESSAGE;
  else if (text.length > MESSAGE_TEXT_MAX) errors.message = MESSAGE_MESSAGES.textTooLong;
  const users = [...new Set(body.users)];
  if (users.length === 0) errors.to = REQUIRED_MESSAGE;
  else if (users.length > MAX_MESSAGE_RECIPIENTS) errors.to = MESSAGE_MESSAGES.tooMany;
  else {
    const members = await activeMembers(db, environmentId, users);
    if (users.some((id) => !members.has(id))) errors.to = MESSAGE_MESSAGES.notMember;
  }
  const dossierId = body.contentDossier ?? body.dossier ?? null;
  if (dossierId !== null) {
    const { dossier } = await openDossier(db, user, dossierId, 'show');
    if (dossier.environment_id !== environmentId) throw notFound();
  }
  if (Object.keys(errors).length) throw badRequest(errors);
  const id = await db
    .transaction()
    .execute((trx) =>
      insertMessage(
        trx,
        { environmentId, senderId: user.id, title, text, type: body.type, dossierId },
        users,
      ),
    );
  await pushUnreadCounts(db, rooms, environmentId, users);
  return id;
}

interface MessageRow {
  id: number;
  environment_id: number;
  sender_id: number | null;
  title: string;
  message_text: string;
  type: 'normal' | 'popup';
  content_dossier_id: number | null;
  notice: MessageNotice | null;
  created_at: Date;
  sender_username: string | null;
  sender_first_name: string | null;
  sender_preposition: string | null;
  sender_last_name: string | null;
  read_at: Date | null;
}

const iso = (date: Date | string | null) => (date === null ? null : new Date(date).toISOString());

function messageColumns(db: Db) {
  return db
    .selectFrom('message as m')
    .leftJoin('app_user', 'app_user.id', 'm.sender_id')
    .select([
      'm.id',
      'm.environment_id',
      'm.sender_id',
      'm.title',
      'm.message_text',
      'm.type',
      'm.content_dossier_id',
      'm.notice',
      'm.created_at',
      'app_user.username as sender_username',
      'app_user.first_name as sender_first_name',
      'app_user.preposition as sender_preposition',
      'app_user.last_name as sender_last_name',
    ]);
}

/** Recipients of the reader's own messages, with when each read it. */
async function recipientsOf(db: Db, environmentId: number, messageIds: number[]) {
  if (messageIds.length === 0) return new Map<number, Message['recipients']>();
  const rows = await db
    .selectFrom('message_recipient as r')
    .innerJoin('app_user', 'app_user.id', 'r.user_id')
    .select([
      'r.message_id',
      'r.user_id',
      'r.read_at',
      'app_user.username',
      'app_user.first_name',
      'app_user.preposition',
      'app_user.last_name',
    ])
    .where('r.environment_id', '=', environmentId)
    .where('r.message_id', 'in', messageIds)
    .orderBy('r.user_id')
    .execute();
  const byMessage = new Map<number, Message['recipients']>();
  for (const row of rows) {
    const list = byMessage.get(Number(row.message_id)) ?? [];
    list.push({ id: row.user_id, name: personName(row), read_date: iso(row.read_at) });
    byMessage.set(Number(row.message_id), list);
  }
  return byMessage;
}

function present(row: MessageRow, userId: number, recipients: Message['recipients']): Message {
  const outgoing = row.sender_id === userId && row.notice === null;
  return {
    id: Number(row.id),
    title: row.title,
    message_text: row.message_text,
    sender_id: row.sender_id,
    sender_name:
      row.sender_username === null
        ? null
        : personName({
            username: row.sender_username,
            first_name: row.sender_first_name,
            preposition: row.sender_preposition,
            last_name: row.sender_last_name,
          }),
    recipients: outgoing ? recipients : [],
    created_at: new Date(row.created_at).toISOString(),
    read_date: iso(row.read_at),
    type: row.type,
    content_dossier_id: row.content_dossier_id === null ? null : Number(row.content_dossier_id),
    notice: row.notice,
    outgoing,
  };
}

/** The reader's incoming or outgoing messages in the environment, newest first. */
export async function listMessages(db: Db, user: UserRow, query: MessageListQuery): Promise<MessagePage> {
  const access = await openEnvironment(db, user, query.environment);
  const environmentId = access.environment.id;
  let filtered = messageColumns(db).where('m.environment_id', '=', environmentId);
  if (query.filter === 'incoming') {
    filtered = filtered
      .innerJoin('message_recipient as r', (join) =>
        join
          .onRef('r.environment_id', '=', 'm.environment_id')
          .onRef('r.message_id', '=', 'm.id')
          .on('r.user_id', '=', user.id),
      )
      .where('r.environment_id', '=', environmentId);
    if (query.new === '1') filtered = filtered.where(sql<boolean>`r.read_at is null`);
  } else {
    filtered = filtered.where('m.sender_id', '=', user.id).where('m.notice', 'is', null);
  }
  if (query.type) filtered = filtered.where('m.type', '=', query.type);
  const readAt =
    query.filter === 'incoming' ? sql<Date | null>`r.read_at` : sql<Date | null>`null::timestamptz`;
  const [{ total }, rows] = await Promise.all([
    filtered
      .clearSelect()
      .select((eb) => eb.fn.countAll<string>().as('total'))
      .executeTakeFirstOrThrow(),
    filtered
      .select(readAt.as('read_at'))
      .orderBy('m.id', 'desc')
      .limit(query.limit)
      .offset(query.page * query.limit)
      .execute(),
  ]);
  const recipients =
    query.filter === 'outgoing'
      ? await recipientsOf(
          db,
          environmentId,
          rows.map((row) => Number(row.id)),
        )
      : new Map();
  return {
    results: rows.map((row) => present(row as MessageRow, user.id, recipients.get(Number(row.id)) ?? [])),
    pager: makePager(query.page, query.limit, Number(total)),
  };
}

/** A message its sender or a recipient may read, with the reader's access to its environment; 404 otherwise. */
async function openMessage(db: Db, user: UserRow, id: number) {
  const row = await messageColumns(db)
    .leftJoin('message_recipient as r', (join) =>
      join
        .onRef('r.environment_id', '=', 'm.environment_id')
        .onRef('r.message_id', '=', 'm.id')
        .on('r.user_id', '=', user.id),
    )
    .select(['r.read_at', 'r.user_id as recipient'])
    .where('m.id', '=', id)
    .where('m.environment_id', 'in', openableEnvironmentIds(db, user))
    .executeTakeFirst();
  if (!row || !canReadMessage(user.id, row, row.recipient !== null)) throw notFound();
  const access = await openEnvironment(db, user, row.environment_id);
  return { row: row as MessageRow & { recipient: number | null }, access };
}

export async function readMessage(db: Db, user: UserRow, id: number): Promise<Message> {
  const { row } = await openMessage(db, user, id);
  const recipients = await recipientsOf(db, row.environment_id, [Number(row.id)]);
  return present(row, user.id, recipients.get(Number(row.id)) ?? []);
}

/** Marks a message the user received as read (once: the first read stays), and pushes the new count. */
export async function markRead(db: Db, rooms: RealtimeRooms, user: UserRow, id: number) {
  const { row } = await openMessage(db, user, id);
  if (row.recipient === null) throw notFound();
  const updated = await db
    .updateTable('message_recipient')
    .set({ read_at: new Date() })
    .where('environment_id', '=', row.environment_id)
    .where('message_id', '=', Number(row.id))
    .where('user_id', '=', user.id)
    .where('read_at', 'is', null)
    .returning('read_at')
    .executeTakeFirst();
  const total = await unreadCount(db, row.environment_id, user.id);
  if (updated)
    rooms.toUser(user.id, UNREAD_EVENT, { environment: row.environment_id, total } satisfies UnreadEvent);
  return { id: Number(row.id), read_date: iso(updated?.read_at ?? row.read_at), total };
}
