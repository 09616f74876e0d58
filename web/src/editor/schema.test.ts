// The editor's ProseMirror schema is core/ydoc/schema.json: same node and mark names,
// same attributes with the same defaults (the server converts what the editor writes).
import { afterAll, describe, expect, it } from 'vitest';
import { Editor } from '@tiptap/core';
import { editorExtensions } from './extensions';
import { EDITOR_SCHEMA } from './schema';
import { toMarkdown, type PmNode } from './markdown/toMarkdown';

const editor = new Editor({ extensions: editorExtensions({ collaborative: false, onImageFile: () => {}, onVideoLink: () => {} }) });
afterAll(() => editor.destroy());

// Tiptap's link mark carries two optional attributes of its own (null unless set, and
// nulls never reach the shared document).
const EDITOR_ONLY_ATTRS: Record<string, string[]> = { link: ['class', 'title'] };

describe('editor schema = core/ydoc/schema.json', () => {
  it('has exactly the shared node types', () => {
    expect(Object.keys(editor.schema.nodes).sort()).toEqual(Object.keys(EDITOR_SCHEMA.nodes).sort());
  });

  it('has exactly the shared marks, ranked in the shared order', () => {
    expect(Object.keys(editor.schema.marks).sort()).toEqual(Object.keys(EDITOR_SCHEMA.marks).sort());
  });

  it.each(Object.entries(EDITOR_SCHEMA.nodes))('node %s has the shared attributes and defaults', (name, spec) => {
    const attrs = editor.schema.nodes[name]!.spec.attrs ?? {};
    const shared = spec.attrs ?? {};
    expect(Object.keys(attrs).sort()).toEqual(Object.keys(shared).sort());
    for (const [attr, value] of Object.entries(shared)) expect(attrs[attr]!.default ?? null).toEqual(value.default);
  });

  it.each(Object.entries(EDITOR_SCHEMA.marks))('mark %s has the shared attributes and defaults', (name, spec) => {
    const attrs = editor.schema.marks[name]!.spec.attrs ?? {};
    const shared = spec.attrs ?? {};
    expect(Object.keys(attrs).filter((a) => !EDITOR_ONLY_ATTRS[name]?.includes(a)).sort()).toEqual(Object.keys(shared).sort());
    for (const [attr, value] of Object.entries(shared)) expect(attrs[attr]!.default ?? null).toEqual(value.default);
  });

  it('pasted Markdown becomes structure; the browser serialiser gives it back', () => {
    const markdown = '# Title\n\nText with **bold** and `code`.\n\n- a\n- b\n\n- [x] done\n\n> quote\n\n| h1 | h2 |\n| --- | --- |\n| 1 | 2 |\n';
    editor.commands.setContent(editor.markdown!.parse(markdown));
    expect(toMarkdown(editor.getJSON() as PmNode)).toBe(markdown);
  });
});
