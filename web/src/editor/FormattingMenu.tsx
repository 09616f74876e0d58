// Selecting text opens the formatting menu: the five marks, a link, and "Comment" when a
// comments panel is there to take it.
import { isTextSelection, type Editor } from '@tiptap/core';
import { BubbleMenu } from '@tiptap/react/menus';
import { selectionChannel } from '../comments/commentSignals';

const MARKS = [
  { name: 'bold', label: 'Bold', text: 'B' },
  { name: 'italic', label: 'Italic', text: 'I' },
  { name: 'underline', label: 'Underline', text: 'U' },
  { name: 'strike', label: 'Strikethrough', text: 'S' },
  { name: 'code', label: 'Code', text: '</>' },
] as const;

export function FormattingMenu({ editor, onLink }: { editor: Editor; onLink: () => void }) {
  return (
    <BubbleMenu editor={editor} className="format-menu" shouldShow={({ editor: e, state }) => e.isEditable && isTextSelection(state.selection) && !state.selection.empty && !state.selection.$from.parent.type.spec.code}>
      <div role="toolbar" aria-label="Formatting">
        {MARKS.map((mark) => (
          <button key={mark.name} type="button" aria-label={mark.label} aria-pressed={editor.isActive(mark.name)}
            onClick={() => editor.chain().focus().toggleMark(mark.name).run()}>{mark.text}</button>
        ))}
        <button type="button" aria-label="Link" aria-pressed={editor.isActive('link')} onClick={onLink}>Link</button>
        {selectionChannel.listening && (
          <button type="button" aria-label="Comment" onClick={() => {
            const { from, to } = editor.state.selection;
            selectionChannel.emit({ editor, from, to, quote: editor.state.doc.textBetween(from, to, ' ') });
          }}>Comment</button>
        )}
      </div>
    </BubbleMenu>
  );
}
