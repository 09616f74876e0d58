import { fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { UserMenu } from './UserMenu';
import { preferences, updatePreferences } from '../preferences/preferences';

describe('user menu', () => {
  it('opens on its first item, moves with the arrow keys, toggles preferences and closes with Escape', () => {
    updatePreferences({ theme: 'light', showGradient: true });
    render(<MemoryRouter><UserMenu /></MemoryRouter>);
    const trigger = screen.getByRole('button', { name: /Account/ });
    fireEvent.click(trigger);
    const dark = screen.getByRole('menuitemcheckbox', { name: 'Dark Mode' });
    expect(dark).toHaveFocus();
    expect(dark).toHaveAttribute('aria-checked', 'false');
    fireEvent.click(dark);
    expect(preferences().theme).toBe('dark');
    expect(document.documentElement.dataset.theme).toBe('dark');
    fireEvent.keyDown(dark, { key: 'ArrowDown' });
    const gradient = screen.getByRole('menuitemcheckbox', { name: 'Background gradient' });
    expect(gradient).toHaveFocus();
    fireEvent.click(gradient);
    expect(preferences().showGradient).toBe(false);
    expect(JSON.parse(localStorage.getItem('preferences')!)).toEqual({ theme: 'dark', showGradient: false });
    fireEvent.keyDown(gradient, { key: 'End' });
    expect(screen.getByRole('menuitem', { name: 'Log Out' })).toHaveFocus();
    fireEvent.keyDown(screen.getByRole('menuitem', { name: 'Log Out' }), { key: 'ArrowDown' });
    expect(dark).toHaveFocus();
    fireEvent.keyDown(dark, { key: 'Escape' });
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
    expect(trigger).toHaveFocus();
  });

  it('API tokens opens the tokens screen', () => {
    render(
      <MemoryRouter>
        <Routes>
          <Route path="/" element={<UserMenu />} />
          <Route path="/settings/tokens" element={<h1>tokens screen</h1>} />
        </Routes>
      </MemoryRouter>,
    );
    fireEvent.click(screen.getByRole('button', { name: /Account/ }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'API tokens' }));
    expect(screen.getByRole('heading', { name: 'tokens screen' })).toBeInTheDocument();
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
  });
});
