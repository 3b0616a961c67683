import type { Order, OrderCreate, SubscriptionOverview } from '@dossierbase/core';
import { SUBSCRIPTION_MESSAGES } from '@dossierbase/core';
import { type Selectable, sql } from 'kysely';
import type { Db } from '../../db/database';
import { paginate } from '../../db/paginate';
import type { SubscriptionOrderTable } from '../../db/schema';
import { badRequest, notFound } from '../../http-errors';
import { seatsInUse, userLimit } from '../member/seats';

type OrderRow = Selectable<SubscriptionOrderTable>;

const ORDER_COLUMNS = [
  'id',
  'max_environments',
  'max_users',
  'months',
  'note',
  'status',
  'created_at',
  'modified_at',
] as const;

const presentOrder = (row: Pick<OrderRow, (typeof ORDER_COLUMNS)[number]>): Order => ({
  ...row,
  created_at: row.created_at.toISOString(),
  modified_at: row.modified_at.toISOString(),
});

/** The holder's subscriptions, newest first, what the running ones allow together and what is used. */
export async function subscriptionOverview(db: Db, holderId: number): Promise<SubscriptionOverview> {
  const now = Date.now();
  const rows = await db
    .selectFrom('subscription')
    .selectAll()
    .where('user_id', '=', holderId)
    .orderBy('expires_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  const subscriptions = rows.map((row) => ({
    id: row.id,
    max_environments: row.max_environments,
    max_users: row.max_users,
    starts_at: row.starts_at.toISOString(),
    expires_at: row.expires_at.toISOString(),
    state:
      row.expires_at.getTime() <= now
        ? ('expired' as const)
        : row.starts_at.getTime() > now
          ? ('upcoming' as const)
          : ('running' as const),
  }));
  const running = subscriptions.filter((s) => s.state === 'running');
  const created = await db
    .selectFrom('environment')
    .select(sql<string>`count(*)`.as('n'))
    .where('created_by', '=', holderId)
    .executeTakeFirstOrThrow();
  return {
    subscriptions,
    limits: {
      max_environments: running.reduce((sum, s) => sum + s.max_environments, 0),
      max_users: await userLimit(db, holderId),
    },
    usage: { environments: Number(created.n), users: await seatsInUse(db, holderId) },
  };
}

export async function listOrders(db: Db, holderId: number, page: { page: number; limit: number }) {
  const { rows, pager } = await paginate(
    db.selectFrom('subscription_order').where('user_id', '=', holderId),
    (q) => q.select(ORDER_COLUMNS).orderBy('id', 'desc'),
    page,
  );
  return { results: rows.map(presentOrder), pager };
}

/** One of the holder's orders; another's answers 404, as one that does not exist. */
export async function getOrder(db: Db, holderId: number, id: number): Promise<Order> {
  const row = await db
    .selectFrom('subscription_order')
    .select(ORDER_COLUMNS)
    .where('id', '=', id)
    .where('user_id', '=', holderId)
    .executeTakeFirst();
  if (!row) throw notFound();
  return presentOrder(row);
}

export async function createOrder(db: Db, holderId: number, order: OrderCreate): Promise<Order> {
  const row = await db
    .insertInto('subscription_order')
    .values({
      user_id: holderId,
      max_environments: order.max_environments,
      max_users: order.max_users,
      months: order.months,
      note: order.note,
    })
    .returning(ORDER_COLUMNS)
    .executeTakeFirstOrThrow();
  return presentOrder(row);
}

/** A requested order is withdrawn by its holder; 400 once it is cancelled or fulfilled. */
export async function cancelOrder(db: Db, holderId: number, id: number): Promise<Order> {
  const current = await getOrder(db, holderId, id);
  if (current.status !== 'requested') throw badRequest({ status: SUBSCRIPTION_MESSAGES.orderNotOpen });
  const row = await db
    .updateTable('subscription_order')
    .set({ status: 'cancelled', modified_at: sql`now()` })
    .where('id', '=', id)
    .where('user_id', '=', holderId)
    .where('status', '=', 'requested')
    .returning(ORDER_COLUMNS)
    .executeTakeFirst();
  if (!row) throw badRequest({ status: SUBSCRIPTION_MESSAGES.orderNotOpen });
  return presentOrder(row);
}
