// The one editor schema (core/ydoc/schema.json), shared with the server's ydoc
// conversions: node and mark names and attribute defaults come from there, not from here.
import schemaJson from '../../../core/ydoc/schema.json';

interface AttrSpec {
  default: unknown;
  values?: unknown[];
}
interface TypeSpec {
  attrs?: Record<string, AttrSpec>;
}

export const EDITOR_SCHEMA = schemaJson as unknown as {
  fragment: string;
  nodes: Record<string, TypeSpec>;
  marks: Record<string, TypeSpec>;
};

export const YDOC_FRAGMENT = EDITOR_SCHEMA.fragment;

/** Mark names in schema order: ProseMirror (and the server) rank marks by it. */
export const MARK_ORDER: readonly string[] = Object.keys(EDITOR_SCHEMA.marks);

function specOf(name: string): TypeSpec {
  const spec = EDITOR_SCHEMA.nodes[name] ?? EDITOR_SCHEMA.marks[name];
  if (!spec) throw new Error(`'${name}' is not in core/ydoc/schema.json`);
  return spec;
}

/** Attribute names of a node or mark, in the schema's order. */
export function attrNames(name: string): string[] {
  return Object.keys(specOf(name).attrs ?? {});
}

export function attrDefault(name: string, attr: string): unknown {
  return specOf(name).attrs?.[attr]?.default ?? null;
}

export function attrValues<T>(name: string, attr: string): T[] {
  return (specOf(name).attrs?.[attr]?.values ?? []) as T[];
}

/** Schema attributes with their defaults only: Tiptap renders each as the HTML attribute of that name (img src, alt...). */
export function plainAttributes(name: string): Record<string, { default: unknown }> {
  return Object.fromEntries(attrNames(name).map((attr) => [attr, { default: attrDefault(name, attr) }]));
}

/**
 * Tiptap `addAttributes()` for a node or mark: every schema attribute with its default,
 * read from and written to a `data-*` attribute so HTML copy/paste keeps them.
 */
export function tiptapAttributes(name: string): Record<string, { default: unknown; parseHTML: (el: HTMLElement) => unknown; renderHTML: (attrs: Record<string, unknown>) => Record<string, string> }> {
  const out: ReturnType<typeof tiptapAttributes> = {};
  for (const attr of attrNames(name)) {
    const fallback = attrDefault(name, attr);
    const dataName = `data-${attr.replace(/_/g, '-')}`;
    out[attr] = {
      default: fallback,
      parseHTML: (el) => {
        const raw = el.getAttribute(dataName);
        if (raw === null) return fallback;
        return typeof fallback === 'number' ? Number(raw) : raw;
      },
      renderHTML: (attrs) => (attrs[attr] === null || attrs[attr] === undefined ? {} : { [dataName]: String(attrs[attr]) }),
    };
  }
  return out;
}

export const ALERT_TYPES = attrValues<'error' | 'warning' | 'success' | 'info'>('alert', 'type');
export const HEADING_LEVELS = attrValues<1 | 2 | 3>('heading', 'level');
