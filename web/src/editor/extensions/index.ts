// The editor's extensions: every node and mark of core/ydoc/schema.json, no other.
import type { AnyExtension, Editor } from '@tiptap/core';
import StarterKit from '@tiptap/starter-kit';
import { TaskItem, TaskList } from '@tiptap/extension-list';
import { TableCell, TableHeader, TableKit } from '@tiptap/extension-table';
import Image from '@tiptap/extension-image';
import { Markdown } from '@tiptap/markdown';
import { Placeholder } from '@tiptap/extensions';
import { plainAttributes } from '../schema';
import { Alert } from './Alert';
import { Video } from './Video';
import { Drawing } from './Drawing';
import { CodeBlock } from './CodeBlock';
import { OneDrawing } from './OneDrawing';
import { HeadingIds } from './HeadingIds';
import { CurrentBlock } from './CurrentBlock';
import { UploadPlaceholder } from './UploadPlaceholder';
import { SmartPaste } from './SmartPaste';
import { CommentHighlighting, CommentMark } from './Comment';
import { HEADING_LEVELS } from '../schema';

export interface ExtensionOptions {
  /** collaboration brings its own history; the offline sandbox keeps undo/redo */
  collaborative: boolean;
  onImageFile: (editor: Editor, file: File) => void;
  onVideoLink: (editor: Editor, url: string) => void;
  /** the cursor name, recorded in a drawing's `users` when this editor draws */
  userName?: string;
}

// Cells keep the shared schema's attributes only: the server knows no column alignment.
function withoutAlign<T extends typeof TableCell>(cell: T) {
  return cell.extend({
    addAttributes() {
      const { align: _dropped, ...shared } = (this.parent?.() ?? {}) as Record<string, unknown>;
      return shared;
    },
  });
}

export function editorExtensions(options: ExtensionOptions): AnyExtension[] {
  return [
    StarterKit.configure({
      heading: { levels: HEADING_LEVELS },
      codeBlock: false,
      undoRedo: options.collaborative ? false : undefined,
      trailingNode: false,
      // no autolink: it would rewrite text that arrives from others or from generation
      link: { openOnClick: false, autolink: false, linkOnPaste: true, defaultProtocol: 'https' },
    }),
    CodeBlock,
    CommentMark,
    CommentHighlighting,
    TaskList,
    TaskItem.configure({ nested: true }),
    TableKit.configure({ table: { resizable: false }, tableCell: false, tableHeader: false }),
    withoutAlign(TableCell),
    withoutAlign(TableHeader),
    Image.extend({ addAttributes: () => plainAttributes('image') }).configure({ allowBase64: true }),
    Alert,
    Video,
    Drawing.configure({ userName: options.userName ?? 'Guest' }),
    OneDrawing,
    HeadingIds,
    CurrentBlock,
    UploadPlaceholder,
    SmartPaste.configure({ onImageFile: options.onImageFile, onVideoLink: options.onVideoLink }),
    Markdown,
    Placeholder.configure({ placeholder: "Type '/' for commands" }),
  ];
}
