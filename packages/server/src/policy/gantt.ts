import type { EnvironmentAccess } from './environment';
import { isEnvironmentAdmin } from './environment';
import { isContractAdmin } from './roles';

// The gantt view of an embedded list (spec doc 3 sections 5 and 6).

/** The warning that lists projects lacking dates: admins, environment admins and contract admins. */
export const canSeeGanttWarnings = (access: Pick<EnvironmentAccess, 'user' | 'membership'>) =>
  isEnvironmentAdmin(access) || isContractAdmin(access.user);
