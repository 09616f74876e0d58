// The project page view (spec section 2): the left sidebar with the tree, the chosen
// page in the block editor, and the right sidebar with the table of contents and copy buttons.
import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import type { Editor } from '@tiptap/core';
import { Navigate, useParams } from 'react-router';
import { SiteHeader } from '../components/SiteHeader';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { TextPromptDialog } from '../components/TextPromptDialog';
import { useDocumentTitle } from '../app/useDocumentTitle';
import { useSessionUser } from '../app/hooks';
import { isTokenUnexpired, storedToken } from '../session/token';
import { STORAGE_KEYS, writeString } from '../storage/localStore';
import { MSG } from '../spec/messages';
import { WIDE_LAYOUT_THRESHOLD_PX } from '../spec/constants';
import NotFoundPage from './NotFoundPage';
import { useProjectData, type ProjectSource } from '../projectView/useProjectData';
import { ProjectSidebar } from '../projectView/ProjectSidebar';
import { TableOfContents } from '../projectView/TableOfContents';
import { PageActions } from '../projectView/PageActions';
import { HistoryPanel } from '../projectView/HistoryPanel';
import { PermissionsDialog } from '../projectView/PermissionsDialog';
import { SettingsDialog } from '../projectView/SettingsDialog';
import { DEFAULT_VIEW_SETTINGS } from '../projectView/viewSettings';
import { useIsWide, useSidebarToggle } from '../projectView/useSidebarToggle';
import { capabilitiesOf } from '../projectView/projectRoles';
import { pageAddress } from '../projectView/pageAddress';
import type { Heading } from '../projectView/headings';
import { EditorSkeleton } from '../editor/EditorSkeleton';
import { CommentsPanel } from '../comments/CommentsPanel';

// the editor (Tiptap, Yjs, highlighting) is its own chunk
const PageEditor = lazy(() => import('../editor/PageEditor'));

type Dialog =
  | { kind: 'none' }
  | { kind: 'invite' }
  | { kind: 'settings' }
  | { kind: 'history'; pageId: number }
  | { kind: 'rename'; pageId: number; name: string }
  | { kind: 'delete'; pageId: number; name: string };

export default function ProjectViewPage({ by }: { by: 'id' | 'github' | 'owner' }) {
  const { projectId, projectOwner, projectName, pageIdParam } = useParams();
  const source: ProjectSource = by === 'id' ? { by: 'id', projectId: Number(projectId) } : { by: 'repository', owner: projectOwner ?? '', name: projectName ?? '' };
  const data = useProjectData(source, `${by}/${projectId}/${projectOwner}/${projectName}`);
  const user = useSessionUser();
  const signedIn = user !== null || isTokenUnexpired(storedToken());
  const [selected, setSelected] = useState<number | null>(null);
  const [headings, setHeadings] = useState<Heading[]>([]);
  const editor = useRef<Editor | null>(null);
  const onEditor = useCallback((e: Editor | null) => {
    editor.current = e;
  }, []);
  const [dialog, setDialog] = useState<Dialog>({ kind: 'none' });
  const [settings, setSettings] = useState(DEFAULT_VIEW_SETTINGS);
  const [sidebarOpen, setSidebarOpen] = useSidebarToggle();
  const wide = useIsWide(WIDE_LAYOUT_THRESHOLD_PX);
  const project = data.state.kind === 'ready' ? data.state.project : null;
  // the editor's chunk is fetched and run after the tree's first paint, so a large tree
  // is on screen (and clickable) before the editor starts
  const [treePainted, setTreePainted] = useState(false);
  const loaded = project !== null;
  useEffect(() => {
    if (!loaded) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => setTreePainted(true), 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [loaded]);
  useDocumentTitle(project?.name ?? 'Project');

  // The first page: the address's, else the project's default; kept while it exists.
  useEffect(() => {
    if (!project) return;
    setSelected((current) => {
      const exists = (id: number | null) => id !== null && project.pages.some((p) => p.id === id);
      if (exists(current)) return current;
      const fromAddress = pageIdParam ? Number(pageIdParam) : null;
      if (current === null && exists(fromAddress)) return fromAddress;
      return exists(project.default_page_id ?? null) ? project.default_page_id! : null;
    });
  }, [project, pageIdParam]);

  const choose = useCallback(
    (pageId: number) => {
      if (!project) return;
      setSelected(pageId);
      window.history.replaceState(window.history.state, '', pageAddress(project, pageId));
      writeString(STORAGE_KEYS.pageId, String(pageId));
      writeString(STORAGE_KEYS.projectId, String(project.id));
    },
    [project],
  );

  const create = async (parentId: number | null) => {
    const created = await data.createPage(parentId);
    if (created?.id) choose(created.id);
  };

  if (data.state.kind === 'signin') return <Navigate to="/login" replace />;
  if (data.state.kind === 'notfound') return <NotFoundPage />;
  if (!project) {
    return (
      <>
        <SiteHeader />
        <main className="page-container"><p role="status" className="muted">Loading project...</p></main>
      </>
    );
  }

  const capabilities = capabilitiesOf(project.role, signedIn);
  const showToc = !wide || settings.showToc;

  return (
    <>
      <SiteHeader>
        <button type="button" className="icon-button" aria-label={sidebarOpen ? 'Hide sidebar' : 'Show sidebar'} aria-pressed={sidebarOpen}
          aria-keyshortcuts="Control+Backslash" onClick={() => setSidebarOpen(!sidebarOpen)}>☰</button>
      </SiteHeader>
      <div className={`project-view${sidebarOpen ? ' has-sidebar' : ''}`}>
        {sidebarOpen && (
          <ProjectSidebar project={project} capabilities={capabilities} selectedId={selected} background={settings.sidebarBackground}
            onRenameProject={(name) => void data.updateProject({ name })}
            onNewPage={() => void create(null)}
            onInvite={() => setDialog({ kind: 'invite' })}
            onSettings={() => setDialog({ kind: 'settings' })}
            onSelect={choose}
            onCreateChild={(parentId) => void create(parentId)}
            onRename={(pageId, name) => setDialog({ kind: 'rename', pageId, name })}
            onDelete={(pageId, name) => setDialog({ kind: 'delete', pageId, name })}
            onMove={(pageId, parentId) => void data.movePage(pageId, parentId)} />
        )}
        <main className="project-view__main" id="main">
          {selected === null ? (
            <div className="project-view__empty">
              <h2>{MSG.noPageSelected}</h2>
              <p className="muted">{MSG.noPageSelectedText}</p>
            </div>
          ) : (
            <>
              <h2 className="project-view__page-title">{project.pages.find((p) => p.id === selected)?.name}</h2>
              {!treePainted ? <EditorSkeleton /> : <Suspense fallback={<EditorSkeleton />}>
                <PageEditor key={selected} projectId={project.id} pageId={selected} pageName={project.pages.find((p) => p.id === selected)?.name}
                  user={user} signedIn={signedIn} canEdit={capabilities.canEdit} onHeadings={setHeadings} onEditor={onEditor}
                  onTitleSynced={data.refetch} />
              </Suspense>}
            </>
          )}
        </main>
        {selected !== null && (
          <aside className="project-view__right" aria-label="Page tools">
            <PageActions pageId={selected} editor={editor} onHistory={() => setDialog({ kind: 'history', pageId: selected })} />
            {showToc && <TableOfContents headings={headings} />}
            <CommentsPanel key={selected} pageId={selected} userId={user?.id ?? null} />
          </aside>
        )}
      </div>
      {dialog.kind === 'invite' && (
        <PermissionsDialog projectId={project.id} currentEmail={user?.email ?? null} onClose={() => setDialog({ kind: 'none' })} />
      )}
      {dialog.kind === 'settings' && (
        <SettingsDialog isPrivate={project.visibility === 'private'} canChangeVisibility={capabilities.canManageUsers} wide={wide}
          settings={settings} onSettings={setSettings}
          onVisibility={(visibility) => void data.updateProject({ visibility })}
          onClose={() => setDialog({ kind: 'none' })} />
      )}
      {dialog.kind === 'history' && (
        <HistoryPanel pageId={dialog.pageId} canRestore={capabilities.canEdit} onClose={() => setDialog({ kind: 'none' })} />
      )}
      {dialog.kind === 'rename' && (
        <TextPromptDialog title="Rename page" label="Page name" initial={dialog.name} submitLabel="Rename"
          onClose={() => setDialog({ kind: 'none' })}
          onSubmit={(name) => {
            setDialog({ kind: 'none' });
            void data.renamePage(dialog.pageId, name);
          }} />
      )}
      {dialog.kind === 'delete' && (
        <ConfirmDialog title="Delete page" text={`Delete '${dialog.name}' and every page under it?`} confirmLabel="Delete" danger
          onClose={() => setDialog({ kind: 'none' })}
          onConfirm={() => {
            setDialog({ kind: 'none' });
            void data.deletePage(dialog.pageId);
          }} />
      )}
    </>
  );
}
