// Spec section 2: visitors get 'Sign in / Log In' in the header; signed-in users get
// View projects and the user menu instead.
import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { SiteHeader } from './SiteHeader';
import { fakeJwt } from '../test/fetchMock';

afterEach(() => {
  cleanup();
  localStorage.clear();
});

describe('site header', () => {
  it("offers visitors 'Sign in' and 'Log In', both to /login", () => {
    render(<MemoryRouter><SiteHeader /></MemoryRouter>);
    const header = screen.getByRole('banner');
    expect(header).toContainElement(screen.getByRole('link', { name: 'Sign in' }));
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/login');
    expect(screen.getByRole('link', { name: 'Log In' })).toHaveAttribute('href', '/login');
    expect(header).toContainElement(screen.getByRole('link', { name: 'Log In' }));
    expect(screen.queryByRole('link', { name: 'View projects' })).toBeNull();
  });

  it('shows View projects and the user menu when signed in', () => {
    localStorage.setItem('auth-jwt', fakeJwt(Math.floor(Date.now() / 1000) + 3600));
    render(<MemoryRouter><SiteHeader /></MemoryRouter>);
    expect(screen.getByRole('link', { name: 'View projects' })).toHaveAttribute('href', '/projects');
    expect(screen.getByRole('button', { name: /Account/ })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Log In' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Sign in' })).toBeNull();
  });
});
