import { Link } from 'react-router';
import { MSG } from '../spec/messages';
import { useDocumentTitle } from '../app/useDocumentTitle';

export default function NotFoundPage() {
  useDocumentTitle('Page not found');
  return (
    <main className="center-page">
      <div className="card card--narrow text-center">
        <p className="big-code" aria-hidden="true">404</p>
        <h1>{MSG.notFoundTitle}</h1>
        <p className="muted">{MSG.notFoundText}</p>
        <Link to="/" className="button button--primary">{MSG.backToHome}</Link>
      </div>
    </main>
  );
}
