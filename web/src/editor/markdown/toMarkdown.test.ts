import { describe, expect, it } from 'vitest';
import { toMarkdown, type PmNode } from './toMarkdown';

const text = (t: string, ...marks: string[]): PmNode => ({ type: 'text', text: t, marks: marks.map((type) => ({ type })) });
const p = (...content: PmNode[]): PmNode => ({ type: 'paragraph', content });
const doc = (...content: PmNode[]): PmNode => ({ type: 'doc', content });

describe('toMarkdown (the server rules of core/ydoc/src/markdown.cpp)', () => {
  it('headings, paragraphs and marks in schema order whatever the JSON order', () => {
    expect(toMarkdown(doc({ type: 'heading', attrs: { level: 2 }, content: [text('Title')] }, p(text(' bold ', 'strike', 'bold'), text('plain'))))).toBe(
      '## Title\n\n **~~bold~~** plain\n',
    );
  });

  it('escapes text and line starts', () => {
    expect(toMarkdown(doc(p(text('# not a heading *x* a|b')), p(text('1. no list'))))).toBe('\\# not a heading \\*x\\* a|b\n\n1\\. no list\n');
  });

  it('links, inline code and unsafe schemes', () => {
    const link = (href: string) => ({ type: 'link', attrs: { href, target: '_blank', rel: 'noopener noreferrer nofollow' } });
    expect(toMarkdown(doc(p({ type: 'text', text: 'site', marks: [link('https://a.b/x y')] }, text(' '), { type: 'text', text: 'go', marks: [link('javascript:alert(1)')] }, text(' '), text('a`b', 'code'))))).toBe(
      '[site](https://a.b/x%20y) [go](#) ``a`b``\n',
    );
  });

  it('lists, task lists, quotes and alerts', () => {
    const item = (t: string, attrs?: Record<string, unknown>): PmNode => ({ type: attrs ? 'taskItem' : 'listItem', attrs, content: [p(text(t))] });
    expect(
      toMarkdown(doc(
        { type: 'bulletList', content: [item('a'), item('b')] },
        { type: 'orderedList', attrs: { start: 3 }, content: [item('c')] },
        { type: 'taskList', content: [item('d', { checked: true }), item('e', { checked: false })] },
        { type: 'blockquote', content: [p(text('q1')), p(text('q2'))] },
        { type: 'alert', attrs: { type: 'warning' }, content: [p(text('careful'))] },
      )),
    ).toBe('- a\n- b\n\n3. c\n\n- [x] d\n- [ ] e\n\n> q1\n>\n> q2\n\n> [!WARNING]\n> careful\n');
  });

  it('code blocks, tables, images, video, drawing, rule', () => {
    const cell = (type: string, t: string): PmNode => ({ type, content: [p(text(t))] });
    expect(
      toMarkdown(doc(
        { type: 'codeBlock', attrs: { language: 'mermaid', git_url: null }, content: [text('graph TD\n  A-->B')] },
        { type: 'table', content: [{ type: 'tableRow', content: [cell('tableHeader', 'h1'), cell('tableHeader', 'h|2')] }, { type: 'tableRow', content: [cell('tableCell', 'x')] }] },
        { type: 'image', attrs: { src: '/img/a.png', alt: 'A', title: 'say "hi"' } },
        { type: 'video', attrs: { src: 'https://www.youtube.com/embed/abc' } },
        { type: 'drawing', attrs: { store: null, users: null } },
        { type: 'horizontalRule' },
      )),
    ).toBe(
      '```mermaid\ngraph TD\n  A-->B\n```\n\n| h1 | h\\|2 |\n| --- | --- |\n| x |  |\n\n![A](/img/a.png "say \\"hi\\"")\n\n[Video](https://www.youtube.com/embed/abc)\n\n<!-- drawing -->\n\n---\n',
    );
  });

  it('an empty document is empty', () => {
    expect(toMarkdown(doc())).toBe('');
    expect(toMarkdown(doc(p()))).toBe('\n');
  });
});
