import { z } from 'zod';
import { idParamSchema } from './ids';

// The User activity screen (/useractivity): per day, how many sign-ins the environment's members made
// and how many of them worked in it, and who was most active, over a window of recent days.

/** Days the screen can look back over; the server keeps the record this long. */
export const ACTIVITY_MAX_DAYS = 90;
export const ACTIVITY_DEFAULT_DAYS = 30;
/** How many members the "most active" table lists. */
export const ACTIVITY_TOP_USERS = 10;

export const activityQuerySchema = z.object({
  environment: idParamSchema,
  days: z.coerce.number().int().min(1).max(ACTIVITY_MAX_DAYS).default(ACTIVITY_DEFAULT_DAYS),
});
export type ActivityQuery = z.input<typeof activityQuerySchema>;

export const activityDaySchema = z.object({
  /** YYYY-MM-DD (UTC) */
  day: z.string(),
  sign_ins: z.number(),
  active_users: z.number(),
});

export const activeUserSchema = z.object({
  id: z.number(),
  username: z.string(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  /** days of the window on which the member worked in the environment */
  active_days: z.number(),
  sign_ins: z.number(),
  last_sign_in: z.string().nullable(),
});

export const activityAnswerSchema = z.object({
  /** every day of the window, oldest first, days without activity included */
  days: z.array(activityDaySchema),
  most_active: z.array(activeUserSchema),
});
export type ActivityAnswer = z.infer<typeof activityAnswerSchema>;
export type ActiveUser = z.infer<typeof activeUserSchema>;
