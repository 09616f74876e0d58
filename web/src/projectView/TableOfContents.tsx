// Links to the page's headings; shown only with more than one heading (spec section 9).
import { TOC_MIN_HEADINGS } from '../spec/constants';
import type { Heading } from './headings';

export function shouldShowToc(headings: readonly Heading[]): boolean {
  return headings.length >= TOC_MIN_HEADINGS;
}

export function TableOfContents({ headings }: { headings: readonly Heading[] }) {
  if (!shouldShowToc(headings)) return null;
  return (
    <nav aria-label="Table of contents" className="toc">
      <h2 className="toc__title">Table of contents</h2>
      <ul>
        {headings.map((h) => (
          <li key={h.id} style={{ paddingLeft: `${(h.level - 1) * 12}px` }}>
            <a href={`#${h.id}`}>{h.text}</a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
