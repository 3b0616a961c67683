import { z } from 'zod';
import { listQuerySchema, pagedSchema } from './common';
import { dossierIdSchema, idParamSchema, idSchema } from './ids';

// Messages between the members of an environment (spec doc 2 sections 3, 5, 7 and 9): a title and an
// HTML text (cleaned on the server), optionally about a dossier; normal, or a pop-up that the recipient
// sees in a modal. A dossier's subscribers also get notices when someone else changes it.

export const MESSAGE_TYPES = ['normal', 'popup'] as const;
export type MessageType = (typeof MESSAGE_TYPES)[number];

/** Recipients one message may have (the picker offers 50 at a time). */
export const MAX_MESSAGE_RECIPIENTS = 50;
export const MESSAGE_TITLE_MAX = 255;
export const MESSAGE_TEXT_MAX = 100_000;
/** The bell: 5 unread messages, titles cut at 30 characters, texts at 100 on a word boundary. */
export const BELL_MESSAGES = 5;
export const BELL_TITLE_LENGTH = 30;
export const BELL_TEXT_LENGTH = 100;
/** The unread count is read every 100 s (and pushed at once); pop-ups every 300 s, the first after 5 s. */
export const UNREAD_POLL_MS = 100_000;
export const POPUP_POLL_MS = 300_000;
export const POPUP_FIRST_MS = 5_000;
export const USER_PICKER_LIMIT = 50;
export const REPLY_PREFIX = 'RE: ';

export const MESSAGE_MESSAGES = {
  notMember: 'Not a member of this environment',
  tooMany: `At most ${MAX_MESSAGE_RECIPIENTS} recipients`,
  titleTooLong: `At most ${MESSAGE_TITLE_MAX} characters`,
  textTooLong: 'This message is too long',
} as const;

// Required fields are checked by the server's service, so that their messages come under the names the
// compose form shows (errors.to, errors.title, errors.message).
export const messageSendSchema = z.object({
  environment: idSchema,
  title: z.string().max(10_000).default(''),
  messageText: z
    .string()
    .max(MESSAGE_TEXT_MAX * 2)
    .default(''),
  users: z.array(idSchema).max(1000).default([]),
  /** the dossier the message is about (the spec's contentDossier; `dossier` is taken as the same) */
  contentDossier: dossierIdSchema.nullish(),
  dossier: dossierIdSchema.nullish(),
  type: z.enum(MESSAGE_TYPES).default('normal'),
});
export type MessageSend = z.output<typeof messageSendSchema>;

export const messageListQuerySchema = listQuerySchema.omit({ search: true }).extend({
  environment: idParamSchema,
  filter: z.enum(['incoming', 'outgoing']).default('incoming'),
  /** 1: unread only */
  new: z.enum(['0', '1']).optional(),
  type: z.enum(MESSAGE_TYPES).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});
export type MessageListQuery = z.output<typeof messageListQuerySchema>;

export const messageEnvironmentQuerySchema = z.object({ environment: idParamSchema });

/** A subscription notice: worded by the client in the reader's language. */
export const messageNoticeSchema = z.object({
  event: z.enum(['change', 'archive', 'delete']),
  summary: z.string(),
  def_dossier_id: z.number(),
  by: z.string(),
});
export type MessageNotice = z.infer<typeof messageNoticeSchema>;

export const messageSchema = z.object({
  id: z.number(),
  title: z.string(),
  message_text: z.string(),
  /** null: a notice of the product (or a sender since removed) */
  sender_id: z.number().nullable(),
  sender_name: z.string().nullable(),
  recipients: z.array(z.object({ id: z.number(), name: z.string(), read_date: z.string().nullable() })),
  created_at: z.string(),
  /** when the reader read it (incoming); null: unread */
  read_date: z.string().nullable(),
  type: z.enum(MESSAGE_TYPES),
  content_dossier_id: z.number().nullable(),
  notice: messageNoticeSchema.nullable(),
  /** the reader sent it */
  outgoing: z.boolean(),
});
export type Message = z.infer<typeof messageSchema>;
export const messagePageSchema = pagedSchema(messageSchema);
export type MessagePage = z.infer<typeof messagePageSchema>;
export const unreadCountSchema = z.object({ total: z.number() });
export const messageIdAnswerSchema = z.object({ id: z.number() });
export const messageReadAnswerSchema = z.object({
  id: z.number(),
  read_date: z.string().nullable(),
  total: z.number(),
});

/** The realtime event that carries a user's unread count in one environment. */
export const UNREAD_EVENT = 'message:unread';
export interface UnreadEvent {
  environment: number;
  total: number;
}
