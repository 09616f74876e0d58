// Spec section 5: pasted content is text, html, markdown or code.
export type PasteKind = 'text' | 'html' | 'markdown' | 'code';

// Markdown block syntax that plain prose rarely has at a line start.
const MARKDOWN_LINE = [
  /^#{1,6}\s+\S/, // heading
  /^\s*[-*+]\s+\[[ xX]\]\s/, // task
  /^\s*[-*+]\s+\S/, // bullet
  /^\s*\d+[.)]\s+\S/, // numbered
  /^>\s?/, // quote
  /^(```|~~~)/, // fence
  /^\|.*\|\s*$/, // table row
  /^(-{3,}|\*{3,}|_{3,})\s*$/, // rule
];
const MARKDOWN_INLINE = [/\*\*[^*\n]+\*\*/, /\[[^\]\n]+\]\([^)\s]+\)/, /!\[[^\]\n]*\]\([^)\s]+\)/, /`[^`\n]+`/, /~~[^~\n]+~~/];

// Lines that read like source code rather than prose.
const CODE_LINE = [
  /[;{}]\s*$/,
  /^\s*(import|export|from|package|using|namespace|#include|#define|def|class|struct|enum|interface|fn|func|function|const|let|var|public|private|protected|static|return|if|for|while|switch|try|catch)\b.*[({:=;]/,
  /^\s*(\/\/|\/\*|\*\/|#!)/,
  /^\s*(import|from|package|using)\s+[\w.@/"'<]+/,
  /^\s*(def|class|fn|func|function)\s+\w+.*[:({]\s*$/,
  /\w\([^()]*\)\s*$/,
  /=>|::|->|\+\+|&&|\|\|/,
  /^\s*<\/?[a-zA-Z][\w-]*(\s[^>]*)?>\s*$/,
];

function share(lines: string[], patterns: RegExp[]): number {
  if (!lines.length) return 0;
  return lines.filter((l) => patterns.some((p) => p.test(l))).length / lines.length;
}

/** Code editors (VS Code, JetBrains) put pre-formatted spans in their HTML. */
function isCodeEditorHtml(html: string): boolean {
  return /data-vscode|vscode-|class="?jetbrains|<meta[^>]+JetBrains/i.test(html) || (/white-space:\s*pre/i.test(html) && !/<(p|h[1-6]|li|table)\b/i.test(html));
}

export function classifyPaste(input: { text: string; html?: string | null }): PasteKind {
  const text = input.text ?? '';
  const html = input.html ?? '';
  if (html.trim()) return isCodeEditorHtml(html) ? 'code' : 'html';
  const lines = text.split(/\r?\n/).filter((l) => l.trim());
  if (!lines.length) return 'text';
  const markdownShare = share(lines, MARKDOWN_LINE);
  const inlineMarkdown = MARKDOWN_INLINE.some((p) => p.test(text));
  const codeShare = share(lines, CODE_LINE);
  const indented = lines.filter((l) => /^(\t| {2,})\S/.test(l)).length / lines.length;
  if (/^(```|~~~)/m.test(text) || markdownShare >= 0.3 || (inlineMarkdown && codeShare < 0.3)) return 'markdown';
  if (lines.length >= 2 && (codeShare >= 0.4 || (codeShare >= 0.2 && indented >= 0.3))) return 'code';
  if (lines.length === 1 && codeShare > 0 && /[;{}]\s*$|=>|^\s*(import|#include|def|function)\b/.test(lines[0]!)) return 'code';
  return 'text';
}
