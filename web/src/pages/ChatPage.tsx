// The AI chat (spec sections 2 and 4): opened from a project's 'Ask AI (Beta)' with the
// project in the navigation state, open to signed-out visitors too. The log scrolls
// above the prompt; the panel holds the project picker and the settings.
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { SiteHeader } from '../components/SiteHeader';
import { useDocumentTitle } from '../app/useDocumentTitle';
import { useSessionUser } from '../app/hooks';
import { isTokenUnexpired, storedToken } from '../session/token';
import { MSG } from '../spec/messages';
import { PROJECT_SIDEBAR_BREAKPOINT_PX } from '../spec/constants';
import { buildRagRequest, canSubmit, submitBlocker, type ProjectSelection } from '../chat/chatRequest';
import { useChatSettings } from '../chat/useChatSettings';
import { useChatProjects } from '../chat/useChatProjects';
import { useChatLog } from '../chat/useChatLog';
import { isAwayFromBottom } from '../chat/scrollPosition';
import { ChatSettingsPanel } from '../chat/ChatSettingsPanel';
import { ProjectPicker } from '../chat/ProjectPicker';
import { PromptForm } from '../chat/PromptForm';
import { ChatExchange } from '../chat/ChatExchange';
import { ContinuePrompting } from '../chat/ContinuePrompting';
import { openedFromProject } from '../chat/navigationState';
import '../chat/chat.css';

/** Room left above a new answer when the log scrolls to it (its question stays in view). */
const ANSWER_TOP_MARGIN_PX = 16;

function widePanelByDefault(): boolean {
  return typeof window === 'undefined' || window.innerWidth > PROJECT_SIDEBAR_BREAKPOINT_PX;
}

export default function ChatPage() {
  useDocumentTitle(MSG.askAi);
  const location = useLocation();
  const navigate = useNavigate();
  const openedFrom = openedFromProject(location.state);
  const user = useSessionUser();
  const signedIn = user !== null || isTokenUnexpired(storedToken());

  const [settings, setSettings] = useChatSettings();
  const { projects, loading: projectsLoading } = useChatProjects(openedFrom, signedIn);
  const [selection, setSelection] = useState<ProjectSelection>({ all: false, ids: openedFrom ? [openedFrom] : [] });
  const [prompt, setPrompt] = useState('');
  const [panelOpen, setPanelOpen] = useState(widePanelByDefault);
  const [away, setAway] = useState(false);
  const { entries, loading, ask } = useChatLog();
  const log = useRef<HTMLDivElement>(null);
  const input = useRef<HTMLTextAreaElement>(null);

  // A project that turned out unreadable (or gone) is not kept selected.
  useEffect(() => {
    if (projectsLoading) return;
    setSelection((s) => ({ ...s, ids: s.ids.filter((id) => projects.some((p) => p.id === id)) }));
  }, [projects, projectsLoading]);

  const measure = useCallback(() => {
    if (log.current) setAway(isAwayFromBottom(log.current));
  }, []);
  useLayoutEffect(measure, [entries, measure]);

  const lastStatus = entries.at(-1)?.status;
  // A new question: show its spinner at the bottom (the answer then scrolls to its own start).
  useLayoutEffect(() => {
    if (lastStatus === 'loading') log.current?.scrollTo?.({ top: log.current.scrollHeight });
  }, [entries.length, lastStatus]);

  const submit = () => {
    if (!canSubmit(prompt, settings, selection) || loading) return;
    void ask(buildRagRequest(prompt, settings, selection));
    setPrompt('');
  };

  const back = () => {
    const idx = (window.history.state as { idx?: number } | null)?.idx ?? 0;
    if (idx > 0) navigate(-1);
    else navigate(openedFrom ? `/projects/${openedFrom}` : '/');
  };

  // Only the log scrolls (scrollIntoView would also move the page around it).
  const scrollToAnswer = useCallback((replyStart: HTMLElement) => {
    const box = log.current;
    if (!box) return;
    const offset = replyStart.getBoundingClientRect().top - box.getBoundingClientRect().top + box.scrollTop;
    box.scrollTo?.({ top: Math.max(0, offset - ANSWER_TOP_MARGIN_PX) });
  }, []);

  const continuePrompting = () => {
    log.current?.scrollTo?.({ top: log.current.scrollHeight, behavior: 'smooth' });
    input.current?.focus();
  };

  const projectName = useCallback((id: number | null | undefined) => projects.find((p) => p.id === id)?.name ?? null, [projects]);

  return (
    <div className="chat-screen">
      <SiteHeader />
      <div className="chat-toolbar">
        <button type="button" className="button button--ghost" onClick={back}><span aria-hidden="true">←</span> Back</button>
        <h1 className="chat-toolbar__title">{MSG.askAi}</h1>
        <button type="button" className="button button--ghost" aria-expanded={panelOpen} aria-controls="chat-panel"
          onClick={() => setPanelOpen(!panelOpen)}>Projects and settings</button>
      </div>
      <div className={`chat-body${panelOpen ? ' has-panel' : ''}`}>
        <main className="chat-main" id="main">
          <div ref={log} className="chat-log" data-testid="chat-log" onScroll={measure} tabIndex={-1}>
            {entries.length === 0 ? (
              <div className="chat-intro">
                <h2>Ask about the code and docs</h2>
                <p className="muted">Answers come from the chosen projects' source code and documentation pages. Turn on Search only for the matching passages with links instead of an answer.</p>
              </div>
            ) : (
              <ol className="chat-exchanges" aria-label="Conversation">
                {entries.map((entry) => <ChatExchange key={entry.id} entry={entry} projectName={projectName} onArrived={scrollToAnswer} />)}
              </ol>
            )}
          </div>
          <ContinuePrompting visible={away} onClick={continuePrompting} />
          <PromptForm value={prompt} onChange={setPrompt} onSubmit={submit} loading={loading} inputRef={input}
            enabled={canSubmit(prompt, settings, selection)} hint={submitBlocker(settings, selection)} />
        </main>
        {panelOpen && (
          <aside id="chat-panel" className="chat-panel" aria-label="Projects and settings">
            <ProjectPicker projects={projects} loading={projectsLoading} signedIn={signedIn} selection={selection} onChange={setSelection} />
            <ChatSettingsPanel settings={settings} onChange={setSettings} />
          </aside>
        )}
      </div>
    </div>
  );
}
