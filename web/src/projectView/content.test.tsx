import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { collectHeadings } from './headings';
import { TableOfContents, shouldShowToc } from './TableOfContents';
import { pageAddress, repositoryOf } from './pageAddress';

describe('page content helpers', () => {
  it('collects headings with ids; the table of contents needs more than one', () => {
    const div = document.createElement('div');
    div.innerHTML = '<h1>One</h1><p>x</p><h2>Two</h2><h3> </h3>';
    const headings = collectHeadings(div);
    expect(headings.map((h) => [h.text, h.level])).toEqual([['One', 1], ['Two', 2]]);
    expect(div.querySelector('h2')!.id).toBe(headings[1]!.id);
    expect(shouldShowToc(headings.slice(0, 1))).toBe(false);
    expect(shouldShowToc(headings)).toBe(true);
    const { container } = render(<TableOfContents headings={headings.slice(0, 1)} />);
    expect(container).toBeEmptyDOMElement();
    render(<TableOfContents headings={headings} />);
    expect(screen.getByRole('link', { name: 'Two' })).toHaveAttribute('href', `#${headings[1]!.id}`);
  });

  it('page addresses: repository projects by owner and name, others by id', () => {
    expect(repositoryOf('https://github.com/pallets/flask.git')).toEqual({ owner: 'pallets', name: 'flask' });
    expect(pageAddress({ id: 3, type: 'github', git_url: 'https://github.com/pallets/flask' }, 9)).toBe('/github/pallets/flask/9');
    expect(pageAddress({ id: 3, type: 'user', git_url: null }, 9)).toBe('/projects/3/9');
  });
});
