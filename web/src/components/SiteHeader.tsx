// Header shared by the app's screens: logo, then Sign in or View projects + user menu.
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
          </>
        )}
      </div>
    </header>
  );
}
