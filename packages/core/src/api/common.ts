import { z } from 'zod';

export const REQUIRED_MESSAGE = 'This is a required field';
export const FORBIDDEN_MESSAGE = '403_general_message';

/** 503 answers: the database cannot be reached right now, or too many large bodies are in flight. */
export const SERVICE_MESSAGES = {
  databaseUnavailable: 'The service is briefly unavailable. Try again in a moment.',
  busy: 'The server is busy. Try again in a moment.',
} as const;

/** Header every state-changing call must carry (CSRF guard). */
export const CSRF_HEADER = 'X-Requested-With';
export const CSRF_VALUE = 'XMLHttpRequest';

/** The largest value of a PostgreSQL `integer` column: ids, ranks, sizes and pages stay within it. */
export const MAX_INT4 = 2_147_483_647;

export interface Pager {
  current: number;
  pages: number;
  items: number;
  limit: number;
  /** items is the planner's estimate (large lists asked for the first time); exact when absent */
  estimated?: boolean;
}

export interface Paged<T> {
  results: T[];
  pager: Pager;
}

/** 400 answer: one message per field name. */
export interface ValidationErrorBody {
  errors: Record<string, string>;
}

export interface MessageBody {
  message: string;
}

// Answer schemas: routes declare them per status code (schema.response); the server serialises with them.

export const pagerSchema = z.object({
  current: z.number(),
  pages: z.number(),
  items: z.number(),
  limit: z.number(),
  estimated: z.boolean().optional(),
});

/** A page of results: `{ results, pager }`. */
export const pagedSchema = <T extends z.ZodType>(item: T) =>
  z.object({ results: z.array(item), pager: pagerSchema });

/** Results without a pager. */
export const resultsSchema = <T extends z.ZodType>(item: T) => z.object({ results: z.array(item) });

/**
 * The one error answer of every 4xx and 5xx: a message, or one message per field (400, 409), with the
 * few extras some answers carry (login asks for the one-time code; a duplicate value names the dossiers).
 */
export const errorAnswerSchema = z.object({
  message: z.string().optional(),
  errors: z.record(z.string(), z.string()).optional(),
  otp_required: z.boolean().optional(),
  existing: z.array(z.object({ id: z.number(), summary: z.string() })).optional(),
  constraint_type: z.enum(['warning', 'error']).optional(),
  /** a refused mass update, merge or series: per dossier (or date) why */
  report: z
    .array(z.object({ id: z.number(), summary: z.string(), errors: z.record(z.string(), z.string()) }))
    .optional(),
});
export type ErrorAnswer = z.infer<typeof errorAnswerSchema>;

/** An answer that is only a message for the user. */
export const messageAnswerSchema = z.object({ message: z.string() });

/** 204: no body. */
export const noContentSchema = z.undefined();

export const listQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(500).default(50),
  page: z.coerce.number().int().min(0).max(MAX_INT4).default(0),
  search: z.string().max(200).optional(),
});

export function makePager(page: number, limit: number, items: number): Pager {
  return { current: page, pages: Math.ceil(items / limit), items, limit };
}
