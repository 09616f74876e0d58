// From the screen's state to the body of POST /lab/rag (spec section 7, issue 12's
// mapping), and when the prompt may be sent (spec section 5).
import type { ChatSettings } from './chatSettings';

export interface RagRequest {
  query: string;
  is_all: boolean;
  is_code: boolean;
  is_docs: boolean;
  is_llm: boolean;
  code_top_k: number;
  docs_top_k: number;
  projectIds: number[];
}

/** Which projects to search: every project the caller can read, or the chosen ones. */
export interface ProjectSelection {
  all: boolean;
  ids: readonly number[];
}

export function hasProjects(selection: ProjectSelection): boolean {
  return selection.all || selection.ids.length > 0;
}

export function canSubmit(prompt: string, settings: ChatSettings, selection: ProjectSelection): boolean {
  return (settings.codeN > 0 || settings.docsN > 0) && hasProjects(selection) && prompt.trim().length > 0;
}

/** Why the prompt cannot be sent yet, for the hint under the input (null when it can). */
export function submitBlocker(settings: ChatSettings, selection: ProjectSelection): string | null {
  if (settings.codeN <= 0 && settings.docsN <= 0) return 'Set code or docs results above 0 in the settings.';
  if (!hasProjects(selection)) return 'Choose at least one project.';
  return null; // An empty prompt needs no explanation.
}

export function buildRagRequest(prompt: string, settings: ChatSettings, selection: ProjectSelection): RagRequest {
  const scope = settings.searchScope;
  return {
    query: prompt.trim(),
    is_all: selection.all,
    is_code: scope === 'codeAndDocs' || scope === 'code',
    is_docs: scope === 'codeAndDocs' || scope === 'docs',
    is_llm: !settings.isSearchOnly,
    code_top_k: settings.codeN,
    docs_top_k: settings.docsN,
    projectIds: selection.all ? [] : [...selection.ids],
  };
}
