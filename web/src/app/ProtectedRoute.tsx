// Routes that need a session user or an unexpired stored token; others go to /login.
import { Navigate, Outlet, useLocation } from 'react-router';
import { useSessionUser } from './hooks';
import { isTokenUnexpired, storedToken } from '../session/token';

export function ProtectedRoute() {
  const user = useSessionUser();
  const location = useLocation();
  if (!user && !isTokenUnexpired(storedToken())) {
    return <Navigate to="/login" replace state={{ from: location.pathname }} />;
  }
  return <Outlet />;
}
