// Syntax highlighting as decorations, recomputed only for the code blocks a change
// touches. (Tiptap's lowlight plugin re-highlights every block of the page on each
// keystroke inside any code block, which costs tens of ms in a long generated page.)
import { Plugin, PluginKey, type Transaction } from '@tiptap/pm/state';
import { Decoration, DecorationSet } from '@tiptap/pm/view';
import type { Node as PmNode } from '@tiptap/pm/model';
import { detectLanguage, lowlight } from '../highlighter';

interface HastNode {
  type: string;
  value?: string;
  properties?: { className?: string[] };
  children?: HastNode[];
}

function grammarFor(node: PmNode): string | null {
  const language = (node.attrs.language as string | null) || detectLanguage(node.textContent);
  return language && lowlight.registered(language) ? language : null;
}

/** Inline decorations for one code block whose content starts at `start`. */
function blockDecorations(node: PmNode, start: number): Decoration[] {
  const grammar = grammarFor(node);
  if (!grammar) return [];
  const out: Decoration[] = [];
  let pos = start;
  const walk = (n: HastNode, classes: string[]) => {
    if (n.type === 'text') {
      const end = pos + (n.value ?? '').length;
      if (classes.length && end > pos) out.push(Decoration.inline(pos, end, { class: classes.join(' ') }));
      pos = end;
      return;
    }
    const own = n.properties?.className ?? [];
    n.children?.forEach((c) => walk(c, own.length ? [...classes, ...own] : classes));
  };
  walk(lowlight.highlight(grammar, node.textContent) as unknown as HastNode, []);
  return out;
}

function allDecorations(doc: PmNode): DecorationSet {
  const decorations: Decoration[] = [];
  doc.descendants((node, pos) => {
    if (node.type.spec.code) decorations.push(...blockDecorations(node, pos + 1));
    return !node.isTextblock;
  });
  return DecorationSet.create(doc, decorations);
}

/** Code blocks of the new document inside the ranges a transaction changed. */
function touchedBlocks(tr: Transaction): Map<number, PmNode> {
  const found = new Map<number, PmNode>();
  tr.mapping.maps.forEach((map, i) => {
    map.forEach((_oldStart, _oldEnd, newStart, newEnd) => {
      // map this step's range through the later steps into the final document
      const later = tr.mapping.slice(i + 1);
      const from = Math.max(0, later.map(newStart, -1));
      const to = Math.min(tr.doc.content.size, later.map(newEnd, 1));
      tr.doc.nodesBetween(from, to, (node, pos) => {
        if (node.type.spec.code) found.set(pos, node);
        return !node.isTextblock;
      });
    });
  });
  return found;
}

export function codeHighlightPlugin(): Plugin<DecorationSet> {
  const key = new PluginKey<DecorationSet>('codeHighlight');
  return new Plugin<DecorationSet>({
    key,
    state: {
      init: (_, state) => allDecorations(state.doc),
      apply(tr, set) {
        if (!tr.docChanged) return set;
        let next = set.map(tr.mapping, tr.doc);
        for (const [pos, node] of touchedBlocks(tr)) {
          const from = pos + 1;
          const to = pos + node.nodeSize - 1;
          next = next.remove(next.find(from, to)).add(tr.doc, blockDecorations(node, from));
        }
        return next;
      },
    },
    props: { decorations: (state) => key.getState(state) },
  });
}
