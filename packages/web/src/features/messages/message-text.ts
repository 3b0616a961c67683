import { htmlToText, type Message } from '@dossierbase/core';
import type { TFunction } from 'i18next';

// How a message reads in lists: a notice worded in the reader's language, and texts cut for the bell.

/** Cut at `max` characters, at the last word boundary when there is one in the second half. */
export function cutAtWord(text: string, max: number): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  if (clean.length <= max) return clean;
  const cut = clean.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

export function messageTitle(message: Message, t: TFunction): string {
  if (!message.notice) return message.title;
  return t(`messages.notice.${message.notice.event}_title`, { summary: message.notice.summary });
}

/** The message as plain text (the bell, the pop-up's preview). */
export function messagePlainText(message: Message, t: TFunction): string {
  if (!message.notice) return htmlToText(message.message_text);
  return t(`messages.notice.${message.notice.event}_text`, {
    summary: message.notice.summary,
    user: message.notice.by,
  });
}

export const senderName = (message: Message, t: TFunction) => message.sender_name ?? t('messages.system');
