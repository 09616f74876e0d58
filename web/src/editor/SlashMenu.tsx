// '/' on an empty line opens the command menu at the cursor (spec section 2, sandbox).
import { useEffect, useState } from 'react';
import type { Editor } from '@tiptap/core';
import { filterCommands, slashQuery, type CommandContext } from './commands';

export function SlashMenu({ editor, ctx }: { editor: Editor; ctx: CommandContext }) {
  const [menu, setMenu] = useState<{ query: string; from: number; to: number; top: number; left: number } | null>(null);
  const [active, setActive] = useState(0);

  useEffect(() => {
    const check = () => {
      const found = editor.isEditable ? slashQuery(editor) : null;
      if (!found) return setMenu(null);
      const coords = editor.view.coordsAtPos(found.to);
      const box = editor.view.dom.getBoundingClientRect();
      setMenu({ ...found, top: coords.bottom - box.top + 4, left: coords.left - box.left });
    };
    editor.on('transaction', check);
    return () => {
      editor.off('transaction', check);
    };
  }, [editor]);

  const items = menu ? filterCommands(menu.query) : [];
  const query = menu?.query;
  useEffect(() => setActive(0), [query]);

  const choose = (index: number) => {
    const item = items[index];
    if (!menu || !item) return;
    editor.chain().focus().deleteRange({ from: menu.from, to: menu.to }).run();
    setMenu(null);
    item.run(editor, ctx);
  };

  useEffect(() => {
    if (!menu) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        const step = event.key === 'ArrowDown' ? 1 : -1;
        setActive((a) => (a + step + items.length) % Math.max(1, items.length));
      } else if (event.key === 'Enter' && items.length) {
        event.preventDefault();
        event.stopPropagation();
        choose(active);
      } else if (event.key === 'Escape') {
        setMenu(null);
      }
    };
    // capture: runs before ProseMirror turns Enter into a new paragraph
    editor.view.dom.addEventListener('keydown', onKey, true);
    return () => editor.view.dom.removeEventListener('keydown', onKey, true);
  });

  if (!menu || !items.length) return null;
  return (
    <div className="slash-menu" role="listbox" aria-label="Commands" style={{ top: menu.top, left: menu.left }}>
      {items.map((item, i) => (
        <button key={item.title} type="button" role="option" aria-selected={i === active} className={i === active ? 'is-active' : undefined}
          onMouseDown={(e) => e.preventDefault()} onClick={() => choose(i)}>
          {item.title}
        </button>
      ))}
    </div>
  );
}
