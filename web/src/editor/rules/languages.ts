// Spec section 9: the registered code languages, plus the diagram language and openapi.
export const DIAGRAM_LANGUAGE = 'mermaid';
export const OPENAPI_LANGUAGE = 'openapi';

export const CODE_LANGUAGES = [
  'javascript', 'typescript', 'python', 'java', 'c++', 'c', 'csharp', 'php', 'ruby', 'go', 'rust', 'swift', 'kotlin',
  'scala', 'sql', 'json', 'xml', 'html', 'yaml', 'bash', 'sh', 'shell', 'powershell', 'css', 'scss', 'markdown',
  'dockerfile', 'nginx', 'apache', DIAGRAM_LANGUAGE, OPENAPI_LANGUAGE,
] as const;

/** The highlight.js grammar behind a registered name (aliases share one). */
export const HIGHLIGHT_GRAMMAR: Record<string, string> = {
  'c++': 'cpp', sh: 'bash', shell: 'bash', html: 'xml', openapi: 'yaml',
};

export function isRegisteredLanguage(name: string | null | undefined): boolean {
  return !!name && (CODE_LANGUAGES as readonly string[]).includes(name);
}

/** Languages whose code block has a rendered view next to the source. */
export function hasRenderedView(language: string | null | undefined): boolean {
  return language === DIAGRAM_LANGUAGE || language === OPENAPI_LANGUAGE;
}
