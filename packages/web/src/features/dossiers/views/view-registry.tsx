import { type ComponentType, lazy } from 'react';
import { GanttView } from './gantt-view';
import { HourRegistrationView } from './hour-registration-view';
import type { LinkedViewName, LinkedViewProps } from './linked-view';
import { EmbeddedListView } from './list-view';
import { TimelineView } from './timeline-view';
import { offeredViews } from './view-logic';

// The calendar and kanban bring their libraries: loaded when first shown (the embedded list wraps
// its view in Suspense).
const CalendarView = lazy(() => import('./calendar-view').then((m) => ({ default: m.CalendarView })));
const KanbanView = lazy(() => import('./kanban-view').then((m) => ({ default: m.KanbanView })));

/**
 * The component of each embedded-list view. A view left undefined is not built (yet): the view
 * switcher offers only the views that the link settings allow and this registry has.
 */
export const viewRegistry: Record<LinkedViewName, ComponentType<LinkedViewProps> | undefined> = {
  list: EmbeddedListView,
  calendar: CalendarView,
  kanban: KanbanView,
  timeline: TimelineView,
  gantt: GanttView,
  hourregistration: HourRegistrationView,
};

/**
 * The views to offer: allowed by the link, built, and for the hour registration view the
 * environment's module (`abilities.canUseHourRegistration`, spec doc 2 section 2).
 */
export const availableViews = (
  allowed: readonly string[],
  abilities?: { canUseHourRegistration?: boolean } | null,
) =>
  offeredViews(
    allowed,
    (name) =>
      viewRegistry[name] !== undefined &&
      (name !== 'hourregistration' || abilities?.canUseHourRegistration === true),
  );
