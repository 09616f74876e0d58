import { Link } from 'react-router';
import { SiteHeader } from '../components/SiteHeader';
import { EXAMPLES } from '../data/examples';
import { truncateExampleDescription } from '../spec/validation';
import { useDocumentTitle } from '../app/useDocumentTitle';

export default function ExamplesPage() {
  useDocumentTitle('Examples');
  return (
    <>
      <SiteHeader />
      <main className="page-container">
        <h1>Examples</h1>
        <p className="muted">Documentation generated from well-known open-source repositories.</p>
        <ul className="example-grid">
          {EXAMPLES.map((example) => (
            <li key={example.href} className="example-card" data-testid="example-card">
              <Link to={example.href} className="example-card__link">
                <img src={example.image} alt="" width={480} height={270} loading="lazy" className="example-card__image" />
                <span className="example-card__title">{example.title}</span>
                <span className="example-card__text">{truncateExampleDescription(example.description)}</span>
              </Link>
            </li>
          ))}
        </ul>
      </main>
    </>
  );
}
