// Headings of a rendered page: each gets a stable id so the table of contents can link it.
export interface Heading {
  id: string;
  text: string;
  level: number;
}

export function collectHeadings(root: ParentNode): Heading[] {
  const headings: Heading[] = [];
  root.querySelectorAll('h1, h2, h3, h4, h5, h6').forEach((el, index) => {
    const text = el.textContent?.trim() ?? '';
    if (!text) return;
    if (!el.id) el.id = `heading-${index + 1}`;
    headings.push({ id: el.id, text, level: Number(el.tagName.slice(1)) });
  });
  return headings;
}
