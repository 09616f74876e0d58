import { describe, expect, it } from 'vitest';
import { detectSpecialLanguage, isMermaid, isOpenApi } from './detectLanguage';
import { classifyPaste } from './pasteClassification';
import { linkFromInput } from './linkRule';
import { isPlainVideoLink, youtubeEmbed } from './videoRule';
import { imageFileProblem } from './imageLimits';
import { canAddDrawing, countDrawings, drawingChangeAllowed } from './drawingRule';
import { CODE_LANGUAGES, isRegisteredLanguage } from './languages';

describe('language detection', () => {
  it.each([
    ['graph TD\n  A-->B', 'mermaid'],
    ['flowchart LR\n  a --> b', 'mermaid'],
    ['sequenceDiagram\n  Alice->>Bob: Hi', 'mermaid'],
    ['%% comment\nclassDiagram\n  A <|-- B', 'mermaid'],
    ['---\ntitle: Flow\n---\nflowchart TD\n  a-->b', 'mermaid'],
    ['erDiagram\n  A ||--o{ B : has', 'mermaid'],
    ['openapi: 3.0.0\ninfo:\n  title: X\npaths:\n  /a: {}', 'openapi'],
    ['swagger: "2.0"\npaths: {}', 'openapi'],
    ['{"openapi": "3.1.0", "info": {}, "paths": {}}', 'openapi'],
    ['def main():\n    print("graph TD")', null],
    ['name: app\npaths: []', null],
    ['{"openapi": 3}', null],
    ['const graph = 1;', null],
  ])('%j -> %s', (code, expected) => {
    expect(detectSpecialLanguage(code)).toBe(expected);
  });

  it('tells the two apart', () => {
    expect(isMermaid('pie title Pets\n "Dogs" : 386')).toBe(true);
    expect(isOpenApi('pie title Pets')).toBe(false);
  });

  it('registers the languages of spec section 9 plus the diagram language and openapi', () => {
    expect(CODE_LANGUAGES).toHaveLength(31);
    for (const name of ['c++', 'csharp', 'dockerfile', 'nginx', 'apache', 'mermaid', 'openapi']) expect(isRegisteredLanguage(name)).toBe(true);
    expect(isRegisteredLanguage('cobol')).toBe(false);
    expect(isRegisteredLanguage(null)).toBe(false);
  });
});

describe('paste classification', () => {
  it.each([
    [{ text: 'Just a sentence, nothing more.' }, 'text'],
    [{ text: 'Two lines of prose.\nAnother line follows here.' }, 'text'],
    [{ text: 'hello', html: '<p>hello <b>world</b></p>' }, 'html'],
    [{ text: 'x = 1', html: '<meta charset="utf-8"><div style="white-space: pre;"><span>x = 1</span></div>' }, 'code'],
    [{ text: '# Title\n\nSome text\n\n- one\n- two' }, 'markdown'],
    [{ text: '```js\nlet a = 1;\n```' }, 'markdown'],
    [{ text: '| a | b |\n| --- | --- |\n| 1 | 2 |' }, 'markdown'],
    [{ text: 'See **this** and [that](https://x.y)' }, 'markdown'],
    [{ text: '- [ ] todo\n- [x] done' }, 'markdown'],
    [{ text: 'function add(a, b) {\n  return a + b;\n}' }, 'code'],
    [{ text: 'import os\nimport sys\n\ndef main():\n    print(os.getcwd())' }, 'code'],
    [{ text: '#include <stdio.h>\nint main() {\n  return 0;\n}' }, 'code'],
    [{ text: 'const x = require("x");' }, 'code'],
    [{ text: '' }, 'text'],
  ])('%j -> %s', (input, expected) => {
    expect(classifyPaste(input)).toBe(expected);
  });
});

describe('link input', () => {
  it.each([
    ['https://example.com/a?b=1', 'https://example.com/a?b=1'],
    ['http://localhost:8080', 'http://localhost:8080'],
    ['mailto:a@b.c', 'mailto:a@b.c'],
    ['example.com', 'https://example.com'],
    ['docs.example.com/path', 'https://docs.example.com/path'],
    ['  example.org  ', 'https://example.org'],
    ['not a link', null],
    ['hello world.com', null],
    ['nodot', null],
    ['', null],
    // a scheme other than http(s) is still a valid URL: never prefixed
    ['ftp://files.example.com/a.zip', 'ftp://files.example.com/a.zip'],
    ['ssh://git@example.com/repo.git', 'ssh://git@example.com/repo.git'],
    ['tel:+1.555.0100', 'tel:+1.555.0100'],
    ['HTTPS://Example.com', 'HTTPS://Example.com'],
    // a host and port is not a scheme
    ['example.com:8080/x', 'https://example.com:8080/x'],
    // unsafe schemes apply nothing (and never become https://javascript:...)
    ['javascript:alert(document.cookie)', null],
    ['data:text/html;base64,PHNjcmlwdD4=', null],
    ['JavaScript://example.com/%0Aalert(1)', null],
    ['http://', null],
  ])('%j -> %j', (input, expected) => {
    expect(linkFromInput(input)).toBe(expected);
  });
});

describe('video rule', () => {
  it.each([
    ['https://www.youtube.com/watch?v=dQw4w9WgXcQ', 'https://www.youtube.com/embed/dQw4w9WgXcQ'],
    ['https://youtu.be/dQw4w9WgXcQ?t=10', 'https://www.youtube.com/embed/dQw4w9WgXcQ'],
    ['youtube.com/shorts/abcdefghijk', 'https://www.youtube.com/embed/abcdefghijk'],
    ['https://www.youtube.com/embed/dQw4w9WgXcQ', 'https://www.youtube.com/embed/dQw4w9WgXcQ'],
    ['https://m.youtube.com/watch?v=dQw4w9WgXcQ&list=x', 'https://www.youtube.com/embed/dQw4w9WgXcQ'],
  ])('%s -> %s', (input, src) => {
    expect(youtubeEmbed(input)).toEqual({ src });
  });

  it.each(['https://vimeo.com/123', 'just text', 'https://www.youtube.com/', 'https://www.youtube.com/watch?x=1'])('refuses %s', (input) => {
    expect(youtubeEmbed(input)).toEqual({ error: 'Please enter a valid YouTube URL' });
  });

  it('a pasted plain video link opens the video dialog; text around it does not', () => {
    expect(isPlainVideoLink('https://youtu.be/dQw4w9WgXcQ')).toBe(true);
    expect(isPlainVideoLink('watch https://youtu.be/dQw4w9WgXcQ')).toBe(false);
    expect(isPlainVideoLink('https://example.com/youtube.com/x')).toBe(false);
  });
});

describe('image limits', () => {
  const MB = 1024 * 1024;
  it.each([
    [{ type: 'image/png', size: 1000 }, null],
    [{ type: 'image/jpeg', size: 20 * MB }, null],
    [{ type: 'image/jpeg', size: 20 * MB + 1 }, 'File size too big (max 20MB).'],
    [{ type: 'application/pdf', size: 10 }, 'File type not supported.'],
    [{ type: '', size: 10 }, 'File type not supported.'],
    [{ type: 'text/plain', size: 30 * MB }, 'File type not supported.'],
  ])('%j -> %j', (file, message) => {
    expect(imageFileProblem(file)).toBe(message);
  });
});

describe('one drawing per document', () => {
  const doc = (...types: string[]) => ({ type: 'doc', content: types.map((type) => ({ type })) });
  it('counts drawings in JSON, nested too', () => {
    expect(countDrawings(doc('paragraph'))).toBe(0);
    expect(countDrawings({ type: 'doc', content: [{ type: 'alert', content: [{ type: 'drawing' }] }, { type: 'drawing' }] })).toBe(2);
  });
  it('allows the first drawing only', () => {
    expect(canAddDrawing(doc('paragraph'))).toBe(true);
    expect(canAddDrawing(doc('paragraph', 'drawing'))).toBe(false);
  });
  it('refuses a change that adds a second drawing, not one that keeps or removes', () => {
    expect(drawingChangeAllowed(doc('paragraph'), doc('drawing'))).toBe(true);
    expect(drawingChangeAllowed(doc('drawing'), doc('drawing', 'drawing'))).toBe(false);
    expect(drawingChangeAllowed(doc('drawing', 'drawing'), doc('drawing', 'drawing'))).toBe(true);
    expect(drawingChangeAllowed(doc('drawing', 'drawing'), doc('drawing'))).toBe(true);
  });
});

describe('pasted HTML', () => {
  it('is sanitised before ProseMirror parses it', async () => {
    const { sanitizePastedHtml } = await import('../sanitizePaste');
    const out = sanitizePastedHtml('<p onclick="x()" style="color:red">Hi <img src="x" onerror="alert(1)"><script>alert(2)</script><a href="javascript:alert(3)">l</a></p><style>p{}</style>');
    expect(out).toBe('<p>Hi <img src="x"><a>l</a></p>');
  });
});
