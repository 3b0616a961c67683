import { matchRoutes } from 'react-router';
import { routes } from './router';

// Menus link only to screens that exist: a path is built when a route of the router serves it (the
// catch-all not-found route does not count). A new screen shows its links by being added there.
export function isBuiltRoute(to: string): boolean {
  const leaf = matchRoutes(routes, to)?.at(-1);
  return leaf !== undefined && leaf.route.path !== '*';
}
