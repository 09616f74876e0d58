import { afterAll, describe, expect, it } from 'vitest';
import { Editor } from '@tiptap/core';
import { clampZoom, zoomByButton, zoomByWheel } from './views/zoom';
import { openApiOperations } from './views/OpenApiView';
import { firstLine } from './titleSync';
import { cursorName } from './collab/cursorUser';
import { filterCommands, SLASH_COMMANDS } from './commands';
import { editorExtensions } from './extensions';
import { headingsOf } from './extensions/HeadingIds';
import { currentBlockDecorations } from './extensions/CurrentBlock';
import { TextSelection } from '@tiptap/pm/state';
import { detectLanguage } from './highlighter';
import { fromBase64, toBase64 } from './collab/bytes';
import { roomName } from './collab/useCollabDocument';

const editor = new Editor({ extensions: editorExtensions({ collaborative: false, onImageFile: () => {}, onVideoLink: () => {} }) });
afterAll(() => editor.destroy());

describe('diagram zoom', () => {
  it('clamps to 0.1..10, 0.001 per wheel delta, 0.05 per button', () => {
    expect(zoomByWheel(1, -100)).toBeCloseTo(1.1);
    expect(zoomByWheel(1, 100)).toBeCloseTo(0.9);
    expect(zoomByWheel(0.15, 1000)).toBe(0.1);
    expect(zoomByWheel(9.99, -1000)).toBe(10);
    expect(zoomByButton(1, 1)).toBe(1.05);
    expect(zoomByButton(0.1, -1)).toBe(0.1);
    expect(clampZoom(50)).toBe(10);
  });
});

describe('OpenAPI view', () => {
  it('lists operations from YAML and JSON', async () => {
    const yaml = 'openapi: 3.0.0\ninfo:\n  title: Pets\npaths:\n  /pets:\n    get:\n      summary: List pets\n    post:\n      summary: "Add a pet"\n  /pets/{id}:\n    delete: {}\ncomponents: {}\n';
    expect(await openApiOperations(yaml)).toEqual({
      title: 'Pets',
      operations: [
        { method: 'GET', path: '/pets', summary: 'List pets' },
        { method: 'POST', path: '/pets', summary: 'Add a pet' },
        { method: 'DELETE', path: '/pets/{id}', summary: '' },
      ],
    });
    expect(await openApiOperations('{"openapi":"3.1.0","info":{"title":"T"},"paths":{"/a":{"put":{"summary":"s"},"parameters":[]}}}')).toEqual({ title: 'T', operations: [{ method: 'PUT', path: '/a', summary: 's' }] });
  });

  it('reads the YAML a line scanner got wrong: flow mappings, quoted paths, block summaries, anchors', async () => {
    const yaml = [
      'openapi: 3.1.0',
      'info: {title: "Store: v2", version: "1"}',
      'paths:',
      '  "/orders/{id}":',
      '    get: &read',
      '      summary: >-',
      '        Reads one',
      '        order',
      '  /refunds: {post: {summary: Refund}, get: *read}',
    ].join('\n');
    expect(await openApiOperations(yaml)).toEqual({
      title: 'Store: v2',
      operations: [
        { method: 'GET', path: '/orders/{id}', summary: 'Reads one order' },
        { method: 'POST', path: '/refunds', summary: 'Refund' },
        { method: 'GET', path: '/refunds', summary: 'Reads one order' },
      ],
    });
  });

  it('refuses what is no OpenAPI document and a flood of aliases', async () => {
    await expect(openApiOperations('- just\n- a list')).resolves.toEqual({ title: 'API', operations: [] });
    await expect(openApiOperations('key: [unclosed')).rejects.toThrow();
    const laughs = ['a: &a [x, x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i < 9; i++) laughs.push(`${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(10).fill('*' + String.fromCharCode(96 + i)).join(', ')}]`);
    await expect(openApiOperations(laughs.join('\n'))).rejects.toThrow();
  });
});

describe('title sync and cursor names', () => {
  it('takes the first non-empty text line', () => {
    editor.commands.setContent('<p></p><p>   </p><h2>  Getting   started </h2><p>more</p>');
    expect(firstLine(editor.state.doc)).toBe('Getting started');
    editor.commands.setContent('<p></p>');
    expect(firstLine(editor.state.doc)).toBeNull();
  });

  it('name, else login, else Guest', () => {
    expect(cursorName({ name: 'Ada', login: 'ada' })).toBe('Ada');
    expect(cursorName({ name: ' ', login: 'ada' })).toBe('ada');
    expect(cursorName({ name: null, login: null })).toBe('Guest');
    expect(cursorName(null)).toBe('Guest');
  });

  it('room names are {projectId}__{pageId}', () => {
    expect(roomName(7, 12)).toBe('7__12');
  });
});

describe('slash menu', () => {
  it('has a command for every insertable node type and filters by title or keyword', () => {
    expect(SLASH_COMMANDS.map((c) => c.title)).toEqual(expect.arrayContaining(['Heading 1', 'Heading 3', 'Bullet list', 'Numbered list', 'To-do list', 'Quote', 'Code block', 'Alert', 'Table', 'Image', 'Video', 'Drawing', 'Divider']));
    expect(filterCommands('tab').map((c) => c.title)).toEqual(['Table']);
    expect(filterCommands('mermaid').map((c) => c.title)).toEqual(['Diagram']);
    expect(filterCommands('')).toHaveLength(SLASH_COMMANDS.length);
  });

  it('inserts a 3x3 table with a header row', () => {
    editor.commands.setContent('<p></p>');
    SLASH_COMMANDS.find((c) => c.title === 'Table')!.run(editor, { chooseImage: () => {}, askVideo: () => {} });
    const table = editor.getJSON().content!.find((n) => n.type === 'table') as { content: { content: { type: string }[] }[] };
    expect(table.content).toHaveLength(3);
    expect(table.content.map((row) => row.content.map((cell) => cell.type))).toEqual([
      ['tableHeader', 'tableHeader', 'tableHeader'], ['tableCell', 'tableCell', 'tableCell'], ['tableCell', 'tableCell', 'tableCell'],
    ]);
  });

  it('refuses a second drawing, typed or pasted', () => {
    editor.commands.setContent('<p></p>');
    expect(editor.commands.insertDrawing()).toBe(true);
    expect(editor.commands.insertDrawing()).toBe(false);
    editor.commands.insertContent({ type: 'drawing' });
    expect(editor.getJSON().content!.filter((n) => n.type === 'drawing')).toHaveLength(1);
  });

  it('alerts default to info', () => {
    editor.commands.setContent('<p>x</p>');
    editor.commands.setTextSelection(1);
    editor.commands.setAlert();
    expect(editor.getJSON().content![0]).toMatchObject({ type: 'alert', attrs: { type: 'info' } });
  });
});

describe('the block with the caret', () => {
  it('is the one top-level block around the selection, inside lists and quotes too', () => {
    editor.commands.setContent('<p>a</p><blockquote><p>b</p></blockquote><p>c</p>');
    const marked = () => currentBlockDecorations(editor.state).find().map((d) => editor.state.doc.nodeAt(d.from)?.textContent);
    editor.commands.setTextSelection(1);
    expect(marked()).toEqual(['a']);
    editor.commands.setTextSelection(6);
    expect(marked()).toEqual(['b']);
    editor.view.dispatch(editor.state.tr.setSelection(TextSelection.create(editor.state.doc, editor.state.doc.content.size - 1)));
    expect(marked()).toEqual(['c']);
  });
});

describe('headings and detection', () => {
  it('numbers headings for the table of contents', () => {
    editor.commands.setContent('<h1>One</h1><p>x</p><h2></h2><h3>Three</h3>');
    expect(headingsOf(editor.state.doc)).toEqual([{ id: 'heading-1', text: 'One', level: 1 }, { id: 'heading-3', text: 'Three', level: 3 }]);
  });

  it('detects diagrams, OpenAPI and ordinary code among the registered languages', () => {
    expect(detectLanguage('graph LR\n  a --> b')).toBe('mermaid');
    expect(detectLanguage('openapi: 3.0.0\npaths: {}')).toBe('openapi');
    expect(detectLanguage('#include <vector>\nint main() {\n  std::vector<int> v;\n  return 0;\n}')).toMatch(/^(c\+\+|c)$/);
    expect(detectLanguage('def f(x):\n    return [i for i in range(x) if i % 2]\n\nprint(f(10))')).toBe('python');
    expect(detectLanguage('')).toBeNull();
  });

  it('base64 round trip of document bytes', () => {
    const bytes = new Uint8Array(70_000).map((_, i) => i % 256);
    expect(fromBase64(toBase64(bytes))).toEqual(bytes);
  });
});

describe('code highlighting', () => {
  it('highlights code blocks and re-highlights only the block a change touches', async () => {
    const { lowlight } = await import('./highlighter');
    const { vi } = await import('vitest');
    editor.commands.setContent({
      type: 'doc',
      content: [
        { type: 'codeBlock', attrs: { language: 'python' }, content: [{ type: 'text', text: 'def f():\n    return 1' }] },
        { type: 'codeBlock', attrs: { language: 'javascript' }, content: [{ type: 'text', text: 'const a = 1;' }] },
        { type: 'paragraph', content: [{ type: 'text', text: 'end' }] },
      ],
    });
    const plugin = editor.state.plugins.find((p) => (p as unknown as { key: string }).key.startsWith('codeHighlight'))!;
    const decorations = (plugin.getState(editor.state) as { find: () => { from: number; to: number; type: { attrs: { class: string } } }[] }).find();
    const keyword = decorations.find((d) => d.type.attrs.class === 'hljs-keyword')!;
    expect(editor.state.doc.textBetween(keyword.from, keyword.to)).toBe('def');
    const spy = vi.spyOn(lowlight, 'highlight');
    editor.commands.insertContentAt(editor.state.doc.content.size - 1, ' more');
    expect(spy).not.toHaveBeenCalled();
    editor.commands.insertContentAt(3, 'x');
    expect(spy).toHaveBeenCalledTimes(1);
    expect(spy.mock.calls[0]![0]).toBe('python');
  });
});

describe('pasted files', () => {
  it('a file that is no image goes to the image check (which says the type is not supported), not in as its name', () => {
    const seen: string[] = [];
    const pasting = new Editor({
      extensions: editorExtensions({ collaborative: false, onImageFile: (_e, file) => seen.push(file.name), onVideoLink: () => {} }),
    });
    const paste = (files: File[], text = '') => {
      const event = { clipboardData: { files, getData: (type: string) => (type === 'text/plain' ? text : '') } } as unknown as ClipboardEvent;
      return pasting.view.someProp('handlePaste', (handle) => handle(pasting.view, event, pasting.state.doc.slice(0, 0)));
    };
    expect(paste([new File(['%PDF'], 'report.pdf', { type: 'application/pdf' })])).toBe(true);
    expect(seen).toEqual(['report.pdf']);
    // with text beside it (a rich copy), the text is what is pasted
    expect(paste([new File(['x'], 'note.bin', { type: 'application/octet-stream' })], 'some words')).toBeFalsy();
    expect(seen).toEqual(['report.pdf']);
    pasting.destroy();
  });
});
