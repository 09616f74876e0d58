import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { codeLocation, itemLocation, pagePath, plainTitle, ResultItem, safeHref } from './ResultItem';

describe('result items', () => {
  it.each([
    ['https://github.com/o/r/blob/abc/src/a.py#L3-L9', 'src/a.py, lines 3-9'],
    ['src/a.py#L3-L9', 'src/a.py, lines 3-9'],
    ['main.py#L4', 'main.py, line 4'],
    ['main.py#L4-L4', 'main.py, line 4'],
    ['https://github.com/o/r', null],
    [null, null],
  ])('code location of %j is %j', (url, expected) => {
    expect(codeLocation(url)).toBe(expected);
  });

  it.each([
    ['https://github.com/o/r/blob/abc/a.py#L1-L2', 'https://github.com/o/r/blob/abc/a.py#L1-L2'],
    ['/projects/1/2', '/projects/1/2'],
    ['main.py#L1-L2', null],
    ['javascript:alert(1)', null],
    ['//evil.example/x', null],
    ['', null],
  ])('link of %j is %j', (url, expected) => {
    expect(safeHref(url)).toBe(expected);
  });

  it('prefers the path and lines docsd sends with a code item', () => {
    expect(itemLocation({ source: 'code', content: '', git_url: null, path: 'main.py', start_line: 1, end_line: 4 })).toBe('main.py, lines 1-4');
    expect(itemLocation({ source: 'code', content: '', path: 'a.c', start_line: 7, end_line: 7 })).toBe('a.c, line 7');
    expect(itemLocation({ source: 'code', content: '', git_url: 'x.py#L2-L3' })).toBe('x.py, lines 2-3');
    expect(itemLocation({ source: 'docs', content: '', path: 'p', start_line: 1 })).toBeNull();
  });

  it('links a page only with both ids', () => {
    expect(pagePath({ source: 'docs', content: '', project_id: 3, page_id: 4 })).toBe('/projects/3/4');
    expect(pagePath({ source: 'docs', content: '', project_id: 3, page_id: null })).toBeNull();
  });

  it('a ZIP project code result shows where it is, and links its page when it has one', () => {
    render(
      <MemoryRouter>
        <ResultItem projectName="Tiny" item={{ source: 'code', content: 'def hello(): ...', git_url: 'main.py#L1-L3', description: 'hello', page_id: 5, project_id: 2 }} />
      </MemoryRouter>,
    );
    expect(screen.getByText('main.py, lines 1-3')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'View code lines' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Open page' })).toHaveAttribute('href', '/projects/2/5');
    expect(screen.getByText('Tiny')).toBeInTheDocument();
    expect(screen.getByText('Code')).toBeInTheDocument();
  });

  it('a docs result shows its Markdown section as a document, its title without escapes', () => {
    render(
      <MemoryRouter>
        <ResultItem projectName={null} item={{ source: 'docs', content: 'Reads **settings**.\n\n```python\nread_config_file("a")\n```\n<script>x()</script>', description: 'config.py › read\\_config\\_file', page_id: 5, project_id: 2 }} />
      </MemoryRouter>,
    );
    expect(screen.getByRole('heading', { name: 'config.py › read_config_file' })).toBeInTheDocument();
    expect(screen.getByText('settings').tagName).toBe('STRONG');
    expect(screen.getByText('read_config_file("a")').tagName).toBe('CODE');
    expect(document.querySelector('script')).toBeNull();
    expect(plainTitle('a\\*b\\_c \\d')).toBe('a*b_c \\d');
  });
});
