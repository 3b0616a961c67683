import type { EnvironmentAccess } from './environment';
import { isEnvironmentAdmin } from './environment';
import { isContractAdmin } from './roles';

// Messages (spec doc 2 section 5, doc 1 section 6): every member sends normal messages to the members of
// the environment; the pop-up type is for super admins, the environment's admins and contract admins.

export const canSendPopup = (access: Pick<EnvironmentAccess, 'user' | 'membership'>) =>
  isEnvironmentAdmin(access) || isContractAdmin(access.user);

/** A message is read by its sender and its recipients, while they belong to its environment. */
export const canReadMessage = (userId: number, message: { sender_id: number | null }, recipient: boolean) =>
  recipient || message.sender_id === userId;
