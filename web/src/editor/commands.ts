// The slash menu's entries (spec sections 3 and 9): one per node type.
import type { Editor } from '@tiptap/core';
import { canAddDrawing } from './rules/drawingRule';
import { showToast } from '../toast/toastStore';
import { EDITOR_MSG } from './rules/editorMessages';

export interface CommandContext {
  chooseImage: () => void;
  askVideo: () => void;
}

export interface SlashCommand {
  title: string;
  keywords: string;
  run: (editor: Editor, ctx: CommandContext) => void;
}

const chain = (editor: Editor) => editor.chain().focus();

export const SLASH_COMMANDS: readonly SlashCommand[] = [
  { title: 'Text', keywords: 'paragraph plain', run: (e) => chain(e).setParagraph().run() },
  { title: 'Heading 1', keywords: 'h1 title', run: (e) => chain(e).setHeading({ level: 1 }).run() },
  { title: 'Heading 2', keywords: 'h2 subtitle', run: (e) => chain(e).setHeading({ level: 2 }).run() },
  { title: 'Heading 3', keywords: 'h3', run: (e) => chain(e).setHeading({ level: 3 }).run() },
  { title: 'Bullet list', keywords: 'unordered ul', run: (e) => chain(e).toggleBulletList().run() },
  { title: 'Numbered list', keywords: 'ordered ol', run: (e) => chain(e).toggleOrderedList().run() },
  { title: 'To-do list', keywords: 'task checkbox', run: (e) => chain(e).toggleTaskList().run() },
  { title: 'Quote', keywords: 'blockquote', run: (e) => chain(e).toggleBlockquote().run() },
  { title: 'Code block', keywords: 'code snippet', run: (e) => chain(e).setCodeBlock().run() },
  { title: 'Diagram', keywords: 'mermaid chart flow', run: (e) => chain(e).insertContent({ type: 'codeBlock', attrs: { language: 'mermaid' }, content: [{ type: 'text', text: 'graph TD\n  A[Start] --> B[End]' }] }).run() },
  { title: 'Alert', keywords: 'info callout note', run: (e) => chain(e).setAlert('info').run() },
  { title: 'Warning', keywords: 'alert caution', run: (e) => chain(e).setAlert('warning').run() },
  { title: 'Error', keywords: 'alert danger', run: (e) => chain(e).setAlert('error').run() },
  { title: 'Success', keywords: 'alert tip', run: (e) => chain(e).setAlert('success').run() },
  { title: 'Table', keywords: 'grid', run: (e) => chain(e).insertTable({ rows: 3, cols: 3, withHeaderRow: true }).run() },
  { title: 'Image', keywords: 'picture photo upload', run: (_e, ctx) => ctx.chooseImage() },
  { title: 'Video', keywords: 'youtube embed', run: (_e, ctx) => ctx.askVideo() },
  {
    title: 'Drawing', keywords: 'excalidraw sketch canvas',
    run: (e) => {
      if (!canAddDrawing(e.state.doc)) showToast({ title: EDITOR_MSG.oneDrawing, type: 'warning' });
      else chain(e).insertDrawing().run();
    },
  },
  { title: 'Divider', keywords: 'horizontal rule hr', run: (e) => chain(e).setHorizontalRule().run() },
];

export function filterCommands(query: string): SlashCommand[] {
  const q = query.trim().toLowerCase();
  if (!q) return [...SLASH_COMMANDS];
  return SLASH_COMMANDS.filter((c) => c.title.toLowerCase().includes(q) || c.keywords.includes(q));
}

/** The '/query' typed alone on the line at the cursor, or null. */
export function slashQuery(editor: Editor): { query: string; from: number; to: number } | null {
  const { selection } = editor.state;
  if (!selection.empty) return null;
  const { $from } = selection;
  if ($from.parent.type.name !== 'paragraph' || $from.parentOffset !== $from.parent.content.size) return null;
  const text = $from.parent.textContent;
  if (!/^\/[\w -]{0,24}$/.test(text)) return null;
  return { query: text.slice(1), from: $from.start(), to: $from.end() };
}
