import { Navigate, Outlet, useLocation, useMatches } from 'react-router';
import { rememberReferer, useTokenData } from '../features/auth/session';
import { useEnvironment } from '../features/environments/environment-store';
import { IdleGuard, IdleLockScreen, useIdleLocked } from './idle-guard';
import { NotFoundPage } from './not-found-page';

/** Handle of the catch-all route: a path no screen serves. */
export const UNKNOWN_PATH = { unknownPath: true } as const;

// The catch-all route sits inside the shell so that it keeps the menu; outside it (signed out, no
// environment chosen) an unknown path is still the plain not-found page, never a redirect.
function useUnknownPath(): boolean {
  return useMatches().some((match) => match.handle === UNKNOWN_PATH);
}

export function RequireAuth() {
  const token = useTokenData();
  const location = useLocation();
  const unknownPath = useUnknownPath();
  const locked = useIdleLocked();
  // The lock outlives the session it ended: it stays until the user chooses to sign in again.
  if (locked) return <IdleLockScreen />;
  if (unknownPath && (!token || token.re_pwd || token.two_factor_required)) return <NotFoundPage />;
  if (!token) {
    rememberReferer(`${location.pathname}${location.search}${location.hash}`);
    return <Navigate to="/login" replace />;
  }
  // The server serves nothing else until a handed-out password is replaced; the environment page
  // shows the form for it.
  if (token.re_pwd && location.pathname !== '/environment') return <Navigate to="/environment" replace />;
  // Likewise until two-factor sign-in is on, when an environment of the user requires it.
  if (token.two_factor_required && location.pathname !== '/environment') {
    rememberReferer(`${location.pathname}${location.search}${location.hash}`);
    return <Navigate to="/environment" replace />;
  }
  return (
    <>
      <Outlet />
      <IdleGuard />
    </>
  );
}

export function RequireEnvironment() {
  const environment = useEnvironment();
  const location = useLocation();
  const unknownPath = useUnknownPath();
  if (!environment) {
    if (unknownPath) return <NotFoundPage />;
    // The page asked for opens once an environment is chosen.
    rememberReferer(`${location.pathname}${location.search}${location.hash}`);
    return <Navigate to="/environment" replace />;
  }
  return <Outlet />;
}
