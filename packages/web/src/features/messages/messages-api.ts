import {
  type EnvironmentMember,
  type Message,
  type MessagePage,
  type MessageType,
  type Paged,
  UNREAD_EVENT,
  UNREAD_POLL_MS,
  type UnreadEvent,
  USER_PICKER_LIMIT,
} from '@dossierbase/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api } from '../../api/client';
import { onRealtimeEvent } from '../../app/realtime';

// The message calls (spec doc 2 section 7) and the unread count, pushed by the server over the socket
// and read every 100 s besides.

export const messageKeys = {
  all: ['message'] as const,
  unread: (environment: number) => ['message', 'unread', environment] as const,
  list: (params: Record<string, string | number>) => ['message', 'list', params] as const,
  one: (id: number) => ['message', 'one', id] as const,
};

export interface MessageDraft {
  environment: number;
  users: number[];
  title: string;
  messageText: string;
  type: MessageType;
  contentDossier?: number | null;
}

export const sendMessage = (draft: MessageDraft) => api.post<{ id: number }>('/message', draft);
export const markMessageRead = (id: number) =>
  api.post<{ id: number; read_date: string | null; total: number }>(`/message/${id}/read`);
export const fetchMessage = (id: number, signal?: AbortSignal) =>
  api.get<Message>(`/message/${id}`, undefined, signal);
export const fetchMessages = (
  query: {
    environment: number;
    filter: 'incoming' | 'outgoing';
    limit: number;
    page?: number;
    new?: 1;
    type?: MessageType;
  },
  signal?: AbortSignal,
) => api.get<MessagePage>('/message', query, signal);

/** Members to send to, found by name (50 at a time). */
export const searchRecipients = (environment: number, name: string, signal?: AbortSignal) =>
  api.get<Paged<EnvironmentMember>>(
    '/user',
    { environment, limit: USER_PICKER_LIMIT, name: name || undefined, active: 1 },
    signal,
  );

/**
 * The user's unread count in the environment: read every 100 s, and set at once when the server pushes
 * it; a push also reads the message lists again (the bell, pop-ups, the inbox). A failure counts 0.
 */
export function useUnreadCount(environment: number) {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!environment) return;
    return onRealtimeEvent<UnreadEvent>(UNREAD_EVENT, (event) => {
      if (event.environment !== environment) return;
      queryClient.setQueryData(messageKeys.unread(environment), { total: event.total });
      void queryClient.invalidateQueries({ queryKey: ['message', 'list'] });
    });
  }, [environment, queryClient]);
  const count = useQuery({
    queryKey: messageKeys.unread(environment),
    queryFn: ({ signal }) =>
      api
        .get<{ total: number }>('/message/unread/count', { environment }, signal)
        .catch(() => ({ total: 0 })),
    enabled: environment > 0,
    refetchInterval: UNREAD_POLL_MS,
  });
  return count.data?.total ?? 0;
}

/** After the user read a message: the count and lists are read again. */
export function useMessagesChanged() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: messageKeys.all });
}
