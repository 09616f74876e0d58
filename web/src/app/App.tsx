// The shell: routes, the global toast and the background gradient.
import { AppRoutes } from './AppRoutes';
import { ToastHost } from '../components/ToastHost';

export function App() {
  return (
    <>
      <div className="app-gradient" aria-hidden="true" />
      <AppRoutes />
      <ToastHost />
    </>
  );
}
