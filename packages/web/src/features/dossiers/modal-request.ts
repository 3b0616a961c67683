import { useSyncExternalStore } from 'react';

// A modal that any component can open and await, shown by one host in the shell: the link
// picker's New and Filter modals. Opening while one is open cancels the first (it resolves with
// the cancel answer).

export interface ModalRequest<Request, Answer> {
  /** Shows the modal for `request`; resolves with its answer (`cancelled` when it is closed). */
  open: (request: Request) => Promise<Answer>;
  /** Closes the modal with an answer. */
  finish: (answer: Answer) => void;
  /** The open request, for the host. */
  useCurrent: () => Request | null;
}

export function createModalRequest<Request, Answer>(cancelled: Answer): ModalRequest<Request, Answer> {
  let current: { request: Request; resolve: (answer: Answer) => void } | null = null;
  let request: Request | null = null;
  const listeners = new Set<() => void>();
  const emit = () => {
    for (const listener of listeners) listener();
  };
  const subscribe = (listener: () => void) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  };
  return {
    open: (next) => {
      current?.resolve(cancelled);
      return new Promise((resolve) => {
        current = { request: next, resolve };
        request = next;
        emit();
      });
    },
    finish: (answer) => {
      current?.resolve(answer);
      current = null;
      request = null;
      emit();
    },
    useCurrent: () =>
      useSyncExternalStore(
        subscribe,
        () => request,
        () => request,
      ),
  };
}
