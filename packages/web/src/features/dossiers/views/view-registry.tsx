import { type ComponentType, use } from 'react';
import { GanttView } from './gantt-view';
import { HourRegistrationView } from './hour-registration-view';
import type { LinkedViewName, LinkedViewProps } from './linked-view';
import { EmbeddedListView } from './list-view';
import { TimelineView } from './timeline-view';
import { offeredViews } from './view-logic';

// The calendar and kanban bring their libraries: loaded apart from the app, as soon as an embedded
// list offers them. Once loaded a view is drawn at once; only before that does it suspend (the
// embedded list wraps its view in Suspense). Not React.lazy: a lazy component suspends on its first
// draw even when its code is there, and React then holds the content back for 300 ms after the
// fallback (its throttle), which was most of the kanban board's time to draw.
interface ViewLoader {
  /** the view, once its code is loaded */
  loaded(): ComponentType<LinkedViewProps> | null;
  /** starts loading the code (once) */
  preload(): Promise<ComponentType<LinkedViewProps>>;
}

function viewLoader(load: () => Promise<ComponentType<LinkedViewProps>>): ViewLoader {
  let view: ComponentType<LinkedViewProps> | null = null;
  let loading: Promise<ComponentType<LinkedViewProps>> | null = null;
  return {
    loaded: () => view,
    preload() {
      loading ??= load().then(
        (loadedView) => {
          view = loadedView;
          return loadedView;
        },
        (error: unknown) => {
          loading = null; // a failed download is tried again on the next draw
          throw error;
        },
      );
      return loading;
    },
  };
}

function LoadedView({ loader, ...props }: LinkedViewProps & { loader: ViewLoader }) {
  const View = loader.loaded() ?? use(loader.preload());
  return <View {...props} />;
}

const calendar = viewLoader(() => import('./calendar-view').then((m) => m.CalendarView));
const kanban = viewLoader(() => import('./kanban-view').then((m) => m.KanbanView));
const CalendarView = (props: LinkedViewProps) => <LoadedView loader={calendar} {...props} />;
const KanbanView = (props: LinkedViewProps) => <LoadedView loader={kanban} {...props} />;
const preloads: Partial<Record<LinkedViewName, () => unknown>> = {
  calendar: calendar.preload,
  kanban: kanban.preload,
};

/** Starts loading the code of the offered views that are loaded apart. */
export function preloadViews(names: readonly LinkedViewName[]) {
  for (const name of names) preloads[name]?.();
}

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
