import { render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import SourcePage from './SourcePage';
import { deriveFromLocation, setRuntimeConfig } from '../../config/runtimeConfig';

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

function at(url: string) {
  render(
    <MemoryRouter initialEntries={[url]}>
      <Routes>
        <Route path="/projects/:projectId/source" element={<SourcePage />} />
      </Routes>
    </MemoryRouter>,
  );
}

beforeEach(() => {
  setRuntimeConfig(deriveFromLocation({ protocol: 'http:', host: 'localhost', hostname: 'localhost' }));
  Element.prototype.scrollIntoView = vi.fn();
});
afterEach(() => vi.unstubAllGlobals());

describe('source view', () => {
  it('links a repository file on its host at the commit, at the linked lines', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => json({
      path: 'pkg/a.py', text: 'x = 1\ny = 2\nz = 3\n', truncated: false,
      web_url: 'https://github.com/o/r/blob/0123456789abcdef/pkg/a.py', commit: '0123456789abcdef',
    })));
    at('/projects/3/source?path=pkg/a.py#L2-L3');
    const host = await screen.findByRole('link', { name: 'View in the repository at 0123456' });
    expect(host).toHaveAttribute('href', 'https://github.com/o/r/blob/0123456789abcdef/pkg/a.py#L2-L3');
    expect(host).toHaveAttribute('rel', 'noopener noreferrer');
    expect(screen.getByTestId('source-code')).toHaveTextContent('y = 2');
  });

  it('shows no host link for an upload, nor for an address that is not the web', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => json({ path: 'a.py', text: 'x = 1\n', truncated: false, web_url: 'javascript:alert(1)' })));
    at('/projects/3/source?path=a.py');
    await screen.findByTestId('source-code');
    expect(screen.queryByRole('link', { name: /View in the repository/ })).toBeNull();
  });
});
