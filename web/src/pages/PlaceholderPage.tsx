// Screens filled in by their own issues; the routes exist now so links work.
import { Link } from 'react-router';
import { SiteHeader } from '../components/SiteHeader';

export function PlaceholderPage({ title, text }: { title: string; text: string }) {
  return (
    <>
      <SiteHeader />
      <main className="center-page">
        <div className="card card--narrow text-center">
          <h1>{title}</h1>
          <p className="muted">{text}</p>
          <Link to="/" className="button">Back to Home</Link>
        </div>
      </main>
    </>
  );
}
