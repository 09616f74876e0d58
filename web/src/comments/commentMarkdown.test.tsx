import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { parseCommentBody, safeHref } from './commentMarkdown';
import { CommentBody } from './CommentBody';

const html = (body: string) => renderToStaticMarkup(<CommentBody body={body} />);

describe('comment bodies', () => {
  it('renders bold, italic, code, safe links and mentions', () => {
    expect(html('**bold** *it* _it_ `x<y` [docs](https://example.com/a?b=1) @Alice@Example.com')).toBe(
      '<div class="comment-body"><strong>bold</strong> <em>it</em> <em>it</em> <code>x&lt;y</code> ' +
        '<a href="https://example.com/a?b=1" target="_blank" rel="noopener noreferrer nofollow">docs</a> ' +
        '<span class="comment-mention">@alice@example.com</span></div>',
    );
    expect(html('line one\nline two')).toBe('<div class="comment-body">line one<br/>line two</div>');
    expect(html('[mail](mailto:a@b.co)')).toContain('href="mailto:a@b.co"');
  });

  it('never makes javascript:, data: or relative links', () => {
    for (const href of ['javascript:alert(1)', 'JaVaScRiPt:alert(1)', ' javascript:alert(1)', 'java\tscript:alert(1)',
      'data:text/html,<script>alert(1)</script>', 'vbscript:x', '/relative', '//evil.example/x', 'file:///etc/passwd']) {
      const out = html(`[click](${href})`);
      expect(out).not.toContain('<a');
      expect(out.toLowerCase()).not.toContain('href=');
    }
    expect(safeHref('javascript:alert(1)')).toBeNull();
    expect(safeHref('https://ok.example/')).toBe('https://ok.example/');
  });

  it('keeps HTML as text', () => {
    const out = html('<img src=x onerror=alert(1)> <script>alert(1)</script> <a href="javascript:x">y</a>');
    expect(out).not.toMatch(/<(img|script|a)[\s>]/);
    expect(out).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });

  it('does not read addresses inside words as mentions, and survives deep nesting', () => {
    expect(parseCommentBody('mail x@alice@example.com')).toEqual([{ kind: 'text', text: 'mail x@alice@example.com' }]);
    const deep = '**'.repeat(200) + 'x' + '**'.repeat(200);
    expect(() => html(deep)).not.toThrow();
    expect(parseCommentBody('\\*not italic\\*')).toEqual([{ kind: 'text', text: '*not italic*' }]);
  });
});
