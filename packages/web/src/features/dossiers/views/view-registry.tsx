import type { ComponentType } from 'react';
import type { LinkedViewName, LinkedViewProps } from './linked-view';

/**
 * The component of each embedded-list view. A view left undefined is not built (yet): the view
 * switcher offers only the views that the link settings allow and this registry has.
 */
export const viewRegistry: Record<LinkedViewName, ComponentType<LinkedViewProps> | undefined> = {
  list: undefined,
  calendar: undefined,
  kanban: undefined,
  timeline: undefined,
  gantt: undefined,
  hourregistration: undefined,
};

/** The views to offer: allowed by the link (in the registry's order) and built. */
export function availableViews(allowed: readonly string[]): LinkedViewName[] {
  return (Object.keys(viewRegistry) as LinkedViewName[]).filter(
    (name) => allowed.includes(name) && viewRegistry[name] !== undefined,
  );
}
