import { render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import ExamplesPage from './ExamplesPage';
import { EXAMPLES } from '../data/examples';
import { deriveFromLocation, setRuntimeConfig } from '../config/runtimeConfig';

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

beforeEach(() => {
  setRuntimeConfig(deriveFromLocation({ protocol: 'http:', host: 'localhost', hostname: 'localhost' }));
});
afterEach(() => vi.unstubAllGlobals());

describe('examples', () => {
  it('a card opens its project when the server has it, else the repository, saying so', async () => {
    const present = EXAMPLES[0]!.repository!;
    vi.stubGlobal('fetch', vi.fn(async (url: string) => {
      const asked = decodeURIComponent(String(url).split('gitUrl=')[1] ?? '');
      return asked === present ? json({ id: 1, name: 'x', pages: [] }) : json({ error: { code: 'not_found', message: 'Project not found' } }, 404);
    }));
    render(<MemoryRouter><ExamplesPage /></MemoryRouter>);
    const cards = screen.getAllByTestId('example-card');
    expect(cards).toHaveLength(13);
    await waitFor(() => expect(cards.filter((c) => c.dataset.present === 'checking')).toHaveLength(0));
    expect(cards[0]!.dataset.present).toBe('here');
    expect(cards[0]!.querySelector('a')).toHaveAttribute('href', EXAMPLES[0]!.href);
    expect(cards[1]!.dataset.present).toBe('elsewhere');
    expect(cards[1]!.querySelector('a')).toHaveAttribute('href', EXAMPLES[1]!.repository);
    expect(cards[1]).toHaveTextContent('Not generated on this server yet');
  });
});
