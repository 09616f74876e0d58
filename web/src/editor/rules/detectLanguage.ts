// Spec section 4: a code block without a language gets one from its text. Diagram
// syntax and OpenAPI documents are recognised here; other code is left to highlight.js
// (see highlighter.ts), restricted to the registered languages.
import { DIAGRAM_LANGUAGE, OPENAPI_LANGUAGE } from './languages';

// First keywords of every mermaid diagram type.
const MERMAID_START =
  /^(graph|flowchart)\s+(TB|TD|BT|RL|LR)\b|^(graph|flowchart)\s*$|^(sequenceDiagram|classDiagram(-v2)?|stateDiagram(-v2)?|erDiagram|journey|gantt|pie|quadrantChart|requirementDiagram|gitGraph|mindmap|timeline|sankey-beta|xychart-beta|block-beta|packet-beta|architecture-beta|C4Context|C4Container|C4Component|C4Dynamic|C4Deployment|kanban|radar-beta)\b/;

function firstMeaningfulLine(code: string): string {
  let lines = code.split('\n').map((l) => l.trim());
  // mermaid front matter (--- ... ---) comes before the diagram type
  const first = lines.findIndex((l) => l !== '');
  if (lines[first] === '---') {
    const close = lines.indexOf('---', first + 1);
    lines = close > first ? lines.slice(close + 1) : [];
  }
  return lines.find((l) => l !== '' && !l.startsWith('%%')) ?? '';
}

export function isMermaid(code: string): boolean {
  return MERMAID_START.test(firstMeaningfulLine(code));
}

/** An OpenAPI (or Swagger) document in JSON or YAML: the version key at the top level, plus paths. */
export function isOpenApi(code: string): boolean {
  const text = code.trim();
  if (text.startsWith('{')) {
    try {
      const doc = JSON.parse(text) as Record<string, unknown>;
      return (typeof doc.openapi === 'string' || typeof doc.swagger === 'string') && typeof doc.paths === 'object';
    } catch {
      return false;
    }
  }
  return /^(openapi|swagger)\s*:\s*["']?\d/m.test(text) && /^paths\s*:/m.test(text);
}

/** 'mermaid', 'openapi' or null (then highlight.js guesses). */
export function detectSpecialLanguage(code: string): string | null {
  if (isMermaid(code)) return DIAGRAM_LANGUAGE;
  if (isOpenApi(code)) return OPENAPI_LANGUAGE;
  return null;
}
