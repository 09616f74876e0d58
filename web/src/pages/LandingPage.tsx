// The marketing page: Home, Features, Integration, Sync, Contact, Share and a footer.
import { Link, useNavigate } from 'react-router';
import { Logo } from '../components/Logo';
import { ThemeToggle } from '../components/ThemeToggle';
import { useSessionUser } from '../app/hooks';
import { isTokenUnexpired, storedToken } from '../session/token';
import { ContactForm } from './landing/ContactForm';
import { runtimeConfig } from '../config/runtimeConfig';
import { BENEFITS, CORE_FEATURES, HEADLINE, INTEGRATION_STEPS, NAV_SECTIONS } from './landing/landingContent';
import { ShareButtons } from './landing/ShareButtons';
import { TypingDemo } from './landing/TypingDemo';
import { useDocumentTitle } from '../app/useDocumentTitle';

function scrollToSection(id: string) {
  const target = document.getElementById(id);
  if (!target) return;
  const smooth = typeof matchMedia === 'function' && !matchMedia('(prefers-reduced-motion: reduce)').matches;
  target.scrollIntoView({ behavior: smooth ? 'smooth' : 'auto', block: 'start' });
  target.focus({ preventScroll: true });
}

export function LandingPage() {
  const navigate = useNavigate();
  const user = useSessionUser();
  const signedIn = user !== null || isTokenUnexpired(storedToken());
  useDocumentTitle(null);
  return (
    <div className="landing">
      <a href="#home" className="skip-link">Skip to content</a>
      <header className="site-header landing__header">
        <Logo />
        <nav aria-label="Sections" className="landing__nav">
          {NAV_SECTIONS.map((s) => (
            <a key={s.id} href={`#${s.id}`} onClick={(e) => { e.preventDefault(); scrollToSection(s.id); }}>{s.label}</a>
          ))}
          <Link to="/examples">Examples</Link>
        </nav>
        <div className="site-header__actions">
          <ThemeToggle />
          <Link to={signedIn ? '/projects' : '/login'} className="button button--ghost">{signedIn ? 'View projects' : 'Sign in'}</Link>
        </div>
      </header>

      <main>
        <section id="home" className="hero" tabIndex={-1} aria-labelledby="hero-title">
          <p className="eyebrow">Documentation from code, kept in sync</p>
          <h1 id="hero-title" className="hero__title">
            {HEADLINE.first} <span className="gradient-text">{HEADLINE.second}</span>
          </h1>
          <p className="hero__lead">
            Connect a repository and get an overview, topics and a page for every file, written from your code,
            rewritten on every push to main, and edited together in real time.
          </p>
          <div className="hero__actions">
            <button type="button" className="button button--primary button--large" onClick={() => navigate('/login')}>Try it out</button>
            <button type="button" className="button button--large" onClick={() => scrollToSection('contact')}>Request Demo</button>
          </div>
          <div className="hero__preview" aria-hidden="true">
            <div className="mock-window">
              <div className="mock-window__sidebar">
                <span className="mock-line mock-line--strong" />
                <span className="mock-line" /><span className="mock-line mock-line--indent" /><span className="mock-line mock-line--indent" />
                <span className="mock-line" /><span className="mock-line mock-line--indent" /><span className="mock-line" />
              </div>
              <div className="mock-window__page">
                <span className="mock-title" />
                <span className="mock-line mock-line--wide" /><span className="mock-line mock-line--wide" /><span className="mock-line" />
                <span className="mock-code" />
                <span className="mock-line mock-line--wide" /><span className="mock-line" />
              </div>
            </div>
          </div>
        </section>

        <section id="features" className="section" tabIndex={-1} aria-labelledby="features-title">
          <h2 id="features-title" className="section__title">Why teams document with us</h2>
          <ul className="benefit-grid">
            {BENEFITS.map((b) => (
              <li key={b.title} className="benefit card">
                <h3>{b.title}</h3>
                <p className="muted">{b.text}</p>
              </li>
            ))}
          </ul>
          <h2 className="section__title section__title--secondary">Core features</h2>
          <ul className="feature-grid">
            {CORE_FEATURES.map((f) => (
              <li key={f.title} className="feature card">
                <h3>{f.title}</h3>
                <p className="muted">{f.text}</p>
                {f.title === 'Collaborative editing' && <Link to="/editor-sandbox" className="text-link">Try our editor →</Link>}
              </li>
            ))}
          </ul>
        </section>

        <section id="integration" className="section" tabIndex={-1} aria-labelledby="integration-title">
          <h2 id="integration-title" className="section__title">Three steps from repository to documentation</h2>
          <ol className="steps">
            {INTEGRATION_STEPS.map((step, index) => (
              <li key={step.title} className="step card">
                <span className="step__number" aria-hidden="true">{index + 1}</span>
                <h3>{step.title}</h3>
                <p className="muted">{step.text}</p>
              </li>
            ))}
          </ol>
        </section>

        <section id="sync" className="section section--split" tabIndex={-1} aria-labelledby="sync-title">
          <div>
            <h2 id="sync-title" className="section__title">Always in sync with main</h2>
            <p className="muted">
              Each push to the main branch updates the pages whose sources changed. Live editors see the change
              as it lands, and pages your team edited by hand are never overwritten.
            </p>
          </div>
          <TypingDemo />
        </section>

        <section id="contact" className="section section--split" tabIndex={-1} aria-labelledby="contact-title">
          <div>
            <h2 id="contact-title" className="section__title">Request a demo</h2>
            <p className="muted">Tell us about your codebase and we will show you its documentation.</p>
          </div>
          {runtimeConfig().contactEmail ? (
            <ContactForm address={runtimeConfig().contactEmail} />
          ) : (
            <p className="muted" data-testid="contact-unset">Ask the team that runs this server: it has no contact address set.</p>
          )}
        </section>

        <section id="share" className="section text-center" tabIndex={-1} aria-labelledby="share-title">
          <h2 id="share-title" className="section__title">Know a team drowning in undocumented code?</h2>
          <ShareButtons />
        </section>
      </main>

      <footer className="footer">
        <Logo />
        <nav aria-label="Footer" className="footer__links">
          <Link to="/examples">Examples</Link>
          <Link to="/editor-sandbox">Editor sandbox</Link>
          <Link to="/login">Sign in</Link>
        </nav>
        <p className="muted">© {new Date().getFullYear()} docs. Build once. Share everywhere.</p>
      </footer>
    </div>
  );
}
