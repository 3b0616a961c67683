import { z } from 'zod';
import { subscriptionSchema } from './auth';
import { listQuerySchema, pagedSchema, REQUIRED_MESSAGE } from './common';

// A contract admin's subscriptions (how many environments they create, how many people work in
// them, until when) and their orders. There is no payment provider: an order is a recorded request
// for other limits, which a super admin turns into a subscription outside the product.

export const SUBSCRIPTION_MESSAGES = {
  orderNotOpen: 'Only a requested order can be cancelled.',
  whole: 'Enter a whole number',
  atLeastOne: 'Enter at least 1',
  tooMany: 'Enter a smaller number',
} as const;

export const ORDER_STATUSES = ['requested', 'cancelled', 'fulfilled'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export const ORDER_MONTHS = [1, 3, 6, 12, 24, 36] as const;
export const ORDER_MAX_ENVIRONMENTS = 1000;
export const ORDER_MAX_USERS = 100_000;
export const ORDER_NOTE_MAX_LENGTH = 2000;

/** running: started and not expired; upcoming: starts later; expired: over. */
export const SUBSCRIPTION_STATES = ['running', 'upcoming', 'expired'] as const;

export const subscriptionOverviewSchema = z.object({
  subscriptions: z.array(subscriptionSchema.extend({ state: z.enum(SUBSCRIPTION_STATES) })),
  /** what the running subscriptions allow together; max_users null: no user limit */
  limits: z.object({ max_environments: z.number(), max_users: z.number().nullable() }),
  /** environments the holder created; people active in them */
  usage: z.object({ environments: z.number(), users: z.number() }),
});
export type SubscriptionOverview = z.infer<typeof subscriptionOverviewSchema>;

export const orderSchema = z.object({
  id: z.number(),
  max_environments: z.number(),
  max_users: z.number().nullable(),
  months: z.number(),
  note: z.string(),
  status: z.enum(ORDER_STATUSES),
  created_at: z.string(),
  modified_at: z.string(),
});
export type Order = z.infer<typeof orderSchema>;
export const orderPageSchema = pagedSchema(orderSchema);

export const orderListQuerySchema = listQuerySchema.pick({ limit: true, page: true });

const count = (max: number) =>
  z
    .number({ error: REQUIRED_MESSAGE })
    .int(SUBSCRIPTION_MESSAGES.whole)
    .min(1, SUBSCRIPTION_MESSAGES.atLeastOne)
    .max(max, SUBSCRIPTION_MESSAGES.tooMany);

/** POST /api/order: the limits asked for (max_users null: no user limit) and for how long. */
export const orderCreateSchema = z.object({
  max_environments: count(ORDER_MAX_ENVIRONMENTS),
  max_users: count(ORDER_MAX_USERS).nullable(),
  months: z.literal(ORDER_MONTHS, { error: REQUIRED_MESSAGE }),
  note: z
    .string()
    .trim()
    .max(ORDER_NOTE_MAX_LENGTH, `At most ${ORDER_NOTE_MAX_LENGTH} characters`)
    .default(''),
});
export type OrderCreate = z.output<typeof orderCreateSchema>;
