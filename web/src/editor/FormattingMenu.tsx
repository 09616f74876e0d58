// Selecting text opens the formatting menu: the five marks and a link.
import { isTextSelection, type Editor } from '@tiptap/core';
import { BubbleMenu } from '@tiptap/react/menus';

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
      </div>
    </BubbleMenu>
  );
}
