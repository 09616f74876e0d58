import { describe, expect, it } from 'vitest';
import { markdownToHtml } from './markdown';

describe('chat answers as HTML', () => {
  it('renders Markdown and removes scripts', () => {
    const html = markdownToHtml('**bold** <img src=x onerror="alert(1)"> [x](javascript:alert(1))');
    expect(html).toContain('<strong>bold</strong>');
    expect(html).not.toContain('onerror');
    expect(html).not.toContain('javascript:');
  });

  it('a parse failure gives a document saying Error parsing document', () => {
    const html = markdownToHtml('anything', () => {
      throw new Error('broken');
    });
    expect(html).toBe('<p>Error parsing document</p>');
  });
});
