import { type ComponentType, lazy } from 'react';
import type { LinkedViewName, LinkedViewProps } from './linked-view';
import { EmbeddedListView } from './list-view';
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
  timeline: undefined,
  gantt: undefined,
  hourregistration: undefined,
};

/** The views to offer: allowed by the link settings and built. */
export const availableViews = (allowed: readonly string[]) =>
  offeredViews(allowed, (name) => viewRegistry[name] !== undefined);
