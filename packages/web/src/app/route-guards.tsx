import { Navigate, Outlet, useLocation } from 'react-router';
import { rememberReferer, useTokenData } from '../features/auth/session';
import { useEnvironment } from '../features/environments/environment-store';
import { IdleGuard } from './idle-guard';

export function RequireAuth() {
  const token = useTokenData();
  const location = useLocation();
  if (!token) {
    rememberReferer(`${location.pathname}${location.search}${location.hash}`);
    return <Navigate to="/login" replace />;
  }
  // The server serves nothing else until a handed-out password is replaced; the environment page
  // shows the form for it.
  if (token.re_pwd && location.pathname !== '/environment') return <Navigate to="/environment" replace />;
  return (
    <>
      <Outlet />
      <IdleGuard />
    </>
  );
}

export function RequireEnvironment() {
  const environment = useEnvironment();
  if (!environment) return <Navigate to="/environment" replace />;
  return <Outlet />;
}
