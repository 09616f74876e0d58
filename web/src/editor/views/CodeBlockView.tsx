// Code block node view: language picker, tabs between the source and the rendered
// diagram or API view, copy, fullscreen, and the git_url link.
import { useMemo, useState } from 'react';
import { NodeViewContent, NodeViewWrapper, type ReactNodeViewProps } from '@tiptap/react';
import { CODE_LANGUAGES, DIAGRAM_LANGUAGE, hasRenderedView } from '../rules/languages';
import { detectLanguage } from '../highlighter';
import { useCopyState } from './useCopyState';
import { useFullscreen } from './useFullscreen';
import { MermaidDiagram } from './MermaidDiagram';
import { OpenApiView } from './OpenApiView';

export function CodeBlockView({ node, updateAttributes, editor }: ReactNodeViewProps) {
  const code = node.textContent;
  const stored = (node.attrs.language as string | null) || null;
  // no stored language: show the detected one (it is written when someone picks one)
  const detected = useMemo(() => (stored ? null : detectLanguage(code)), [stored, code]);
  const language = stored ?? detected;
  const rendered = hasRenderedView(language);
  const [tab, setTab] = useState<'source' | 'view'>(rendered ? 'view' : 'source');
  const [fullscreen, toggleFullscreen] = useFullscreen();
  const [copyLabel, copy] = useCopyState();
  const gitUrl = node.attrs.git_url as string | null;
  const showView = rendered && tab === 'view' && code.trim() !== '';
  const viewName = language === DIAGRAM_LANGUAGE ? 'Diagram' : 'API';

  return (
    <NodeViewWrapper className={`code-block${fullscreen ? ' code-block--fullscreen' : ''}`} data-language={language ?? ''}>
      <div className="code-block__bar" contentEditable={false}>
        <select aria-label="Code language" value={stored ?? ''} disabled={!editor.isEditable} onChange={(e) => updateAttributes({ language: e.target.value || null })}>
          <option value="">{detected ? `auto (${detected})` : 'auto'}</option>
          {CODE_LANGUAGES.map((l) => <option key={l} value={l}>{l}</option>)}
        </select>
        {rendered && (
          <div role="tablist" aria-label="Code block view" className="code-block__tabs">
            <button type="button" role="tab" aria-selected={tab === 'source'} onClick={() => setTab('source')}>Source</button>
            <button type="button" role="tab" aria-selected={tab === 'view'} onClick={() => setTab('view')}>{viewName}</button>
          </div>
        )}
        {gitUrl && /^https?:\/\//.test(gitUrl) && (
          <a className="code-block__git" href={gitUrl} target="_blank" rel="noopener noreferrer nofollow">View source</a>
        )}
        {gitUrl && /^\/projects\/\d+\/source\?path=/.test(gitUrl) && (
          <a className="code-block__git" href={gitUrl}>View source</a>
        )}
        <button type="button" className="button button--ghost" onClick={() => void copy(code)}>{copyLabel}</button>
        <button type="button" className="button button--ghost" aria-pressed={fullscreen} onClick={(e) => toggleFullscreen(e.currentTarget.closest<HTMLElement>('.code-block'))}>
          {fullscreen ? 'Exit fullscreen' : 'Fullscreen'}
        </button>
      </div>
      {/* the source stays mounted (ProseMirror owns it); the view only hides it */}
      <pre className="code-block__source" hidden={showView}>
        <NodeViewContent<'code'> as="code" className={language ? `language-${language}` : undefined} />
      </pre>
      {showView && (
        <div className="code-block__view" contentEditable={false}>
          {language === DIAGRAM_LANGUAGE ? <MermaidDiagram code={code} /> : <OpenApiView code={code} />}
        </div>
      )}
    </NodeViewWrapper>
  );
}
