// The examples grid (spec: 13 cards, descriptions cut at 45 characters). A card opens
// its project when this server has it; until then (a fresh install, before
// web/scripts/create-examples.mjs ran) it links to the repository itself and says so,
// instead of opening a page that is not there.
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { SiteHeader } from '../components/SiteHeader';
import { EXAMPLES, type ExampleCard } from '../data/examples';
import { projectOfRepositoryExists } from '../api/projectsApi';
import { truncateExampleDescription } from '../spec/validation';
import { useDocumentTitle } from '../app/useDocumentTitle';

type Presence = 'checking' | 'here' | 'elsewhere';

/** Which examples exist on this server, checked once per visit. */
function usePresence(examples: readonly ExampleCard[]): Presence[] {
  const [presence, setPresence] = useState<Presence[]>(() => examples.map((e) => (e.repository ? 'checking' : 'here')));
  useEffect(() => {
    let cancelled = false;
    examples.forEach((example, index) => {
      if (!example.repository) return;
      void projectOfRepositoryExists(example.repository).then((exists) => {
        if (cancelled) return;
        setPresence((now) => now.map((p, i) => (i === index ? (exists ? 'here' : 'elsewhere') : p)));
      });
    });
    return () => {
      cancelled = true;
    };
  }, [examples]);
  return presence;
}

function CardBody({ example, note }: { example: ExampleCard; note?: string }) {
  return (
    <>
      <img src={example.image} alt="" width={480} height={270} loading="lazy" className="example-card__image" />
      <span className="example-card__title">{example.title}</span>
      <span className="example-card__text">{truncateExampleDescription(example.description)}</span>
      {note && <span className="example-card__note muted">{note}</span>}
    </>
  );
}

export default function ExamplesPage() {
  useDocumentTitle('Examples');
  const presence = usePresence(EXAMPLES);
  return (
    <>
      <SiteHeader />
      <main className="page-container">
        <h1>Examples</h1>
        <p className="muted">Documentation generated from well-known open-source repositories.</p>
        <ul className="example-grid">
          {EXAMPLES.map((example, index) => (
            <li key={example.href} className="example-card" data-testid="example-card" data-present={presence[index]}>
              {presence[index] === 'elsewhere' && example.repository ? (
                <a href={example.repository} className="example-card__link" target="_blank" rel="noopener noreferrer">
                  <CardBody example={example} note="Not generated on this server yet: opens the repository" />
                </a>
              ) : (
                <Link to={example.href} className="example-card__link">
                  <CardBody example={example} />
                </Link>
              )}
            </li>
          ))}
        </ul>
      </main>
    </>
  );
}
