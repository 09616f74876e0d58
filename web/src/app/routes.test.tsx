import { render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { AppRoutes } from './AppRoutes';
import { EXAMPLES } from '../data/examples';
import { fakeJwt } from '../test/fetchMock';
import { deriveFromLocation, mergeConfig, setRuntimeConfig } from '../config/runtimeConfig';

function at(path: string) {
  render(
    <MemoryRouter initialEntries={[path]}>
      <AppRoutes />
    </MemoryRouter>,
  );
}

describe('routes', () => {
  it('shows the not-found page with its link home', async () => {
    at('/nothing/here/at/all');
    // Lazy screens load slowly on a busy machine: wait longer than the 1 s default.
    expect(await screen.findByRole('heading', { name: 'Oops! This page does not exist.' }, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.getByText(/It seems like the page you are looking for has been moved/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Home' })).toHaveAttribute('href', '/');
    // the title is set by an effect after the first paint: wait for it, do not race it
    await waitFor(() => expect(document.title).toBe('Page not found · docs'));
  });

  it('/hello says the work is done', async () => {
    at('/hello');
    expect(await screen.findByText('the work is done')).toBeInTheDocument();
  });

  it.each(['/projects', '/generate/github', '/generate/zip/3', '/settings/tokens'])('%s redirects to /login when signed out', async (path) => {
    at(path);
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
  });

  it('an expired token does not open a protected route', async () => {
    localStorage.setItem('auth-jwt', fakeJwt(Date.now() / 1000 - 10));
    at('/generate/zip/3');
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
  });

  it('an unexpired token opens a protected route', async () => {
    localStorage.setItem('auth-jwt', fakeJwt(Date.now() / 1000 + 600));
    at('/generate/zip/x');
    expect(await screen.findByText('You can close this page without causing any issues.')).toBeInTheDocument();
  });

  it('/login goes to /projects when a stored token is unexpired', async () => {
    localStorage.setItem('auth-jwt', fakeJwt(Date.now() / 1000 + 600));
    at('/login');
    expect(await screen.findByRole('button', { name: 'Create New Project' })).toBeInTheDocument();
  });

  it('the landing page has the headline, buttons and sections', () => {
    at('/');
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Automate your documentation, Accelerate your development.');
    expect(screen.getByRole('button', { name: 'Try it out' })).toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: 'Request Demo' }).length).toBeGreaterThan(0);
    for (const benefit of ['Faster onboarding', 'Code quality', 'Legacy support', 'Team handoffs', 'Lower bus factor']) {
      expect(screen.getByRole('heading', { name: benefit })).toBeInTheDocument();
    }
    expect(screen.getByRole('link', { name: /Try our editor/ })).toHaveAttribute('href', '/editor-sandbox');
  });

  it('the Request Demo form shows only with a contact address, and writes to it', () => {
    const base = deriveFromLocation({ protocol: 'http:', host: 'localhost', hostname: 'localhost' });
    setRuntimeConfig(base);
    at('/');
    expect(screen.getByTestId('contact-unset')).toBeInTheDocument();
    expect(screen.queryByLabelText('Work email')).not.toBeInTheDocument();
    document.body.innerHTML = '';
    setRuntimeConfig(mergeConfig(base, { contactEmail: 'sales@acme.example' }));
    at('/');
    expect(screen.getByLabelText('Work email')).toBeInTheDocument();
    expect(screen.queryByTestId('contact-unset')).not.toBeInTheDocument();
    setRuntimeConfig(base);
  });

  it('examples: 13 cards with cut descriptions', async () => {
    expect(EXAMPLES).toHaveLength(13);
    at('/examples');
    const cards = await screen.findAllByTestId('example-card');
    expect(cards).toHaveLength(13);
    for (const [index, card] of cards.entries()) {
      const full = EXAMPLES[index]!.description;
      const shown = full.length > 45 ? `${full.slice(0, 45)}...` : full;
      expect(card).toHaveTextContent(shown);
    }
  });
});
