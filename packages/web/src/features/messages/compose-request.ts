import { createModalRequest } from '../dossiers/modal-request';

// The compose modal, opened from the bell, the inbox, a message (reply), a dossier page and a
// colleague's profile; one host in the shell shows it.

export interface ComposeRequest {
  to?: { id: number; name: string }[];
  title?: string;
  dossier?: { id: number; summary: string };
}

/** Resolves true when the message was sent. */
export const composeRequest = createModalRequest<ComposeRequest, boolean>(false);
export const openCompose = (request: ComposeRequest = {}) => composeRequest.open(request);
