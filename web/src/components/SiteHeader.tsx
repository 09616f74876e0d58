// Header shared by the app's screens: logo, then for visitors 'Sign in / Log In' (spec
// section 2: both, in the header, so they stay when the page view's sidebar is closed),
// for signed-in users View projects + user menu.
import { Link } from 'react-router';
import { Logo } from './Logo';
import { ThemeToggle } from './ThemeToggle';
import { UserMenu } from './UserMenu';
import { useSessionUser } from '../app/hooks';
import { isTokenUnexpired, storedToken } from '../session/token';
import type { ReactNode } from 'react';

export function SiteHeader({ children }: { children?: ReactNode }) {
  const user = useSessionUser();
  const signedIn = user !== null || isTokenUnexpired(storedToken());
  return (
    <header className="site-header">
      <Logo />
      <div className="site-header__actions">
        {children}
        {signedIn ? (
          <>
            <Link to="/projects" className="button button--ghost">View projects</Link>
            <UserMenu />
          </>
        ) : (
          <>
            <ThemeToggle />
            <Link to="/login" className="button button--ghost">Sign in</Link>
            <Link to="/login" className="button button--primary">Log In</Link>
          </>
        )}
      </div>
    </header>
  );
}
