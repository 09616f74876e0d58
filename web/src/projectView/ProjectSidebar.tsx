// The left sidebar of the page view: project name, page search, New page, Invite, the
// tree, Ask AI (Beta) when the project is indexed, Home and Settings.
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { InlineTextEditor } from '../components/InlineTextEditor';
import { MSG, showingPages } from '../spec/messages';
import type { ProjectWithPages } from '../api/types';
import { PageTree, type TreeActions } from './PageTree';
import { isSearching } from './pageTree';
import { buildSearchIndex, searchIndex } from './pageSearch';
import type { Capabilities } from './projectRoles';

interface Props extends TreeActions {
  project: ProjectWithPages;
  capabilities: Capabilities;
  selectedId: number | null;
  background: boolean;
  onRenameProject: (name: string) => void;
  onNewPage: () => void;
  onInvite: () => void;
  onSettings: () => void;
}

export function ProjectSidebar(props: Props) {
  const { project, capabilities, selectedId, background } = props;
  const [query, setQuery] = useState('');
  const searching = isSearching(query);
  // Names are lowercased once per load, not per keystroke.
  const index = useMemo(() => buildSearchIndex(project.pages), [project.pages]);
  const visible = useMemo(() => searchIndex(index, query), [index, query]);

  return (
    <aside className={`project-sidebar${background ? ' has-background' : ''}`} aria-label="Project navigation">
      <div className="project-sidebar__name" data-testid="project-title">
        {capabilities.canEdit ? (
          <InlineTextEditor value={project.name} label="Project name" defaultText={project.name}
            onSave={(name) => name && props.onRenameProject(name)} />
        ) : (
          <h1 className="project-sidebar__title">{project.name}</h1>
        )}
      </div>
      <label className="field">
        <span className="visually-hidden">Search pages</span>
        <input type="search" placeholder="Search pages" value={query} onChange={(e) => setQuery(e.target.value)} />
      </label>
      {searching && <p className="muted project-sidebar__count" role="status">{showingPages(visible.length, project.pages.length)}</p>}
      {capabilities.canEdit && (
        <div className="project-sidebar__actions">
          <button type="button" className="button" onClick={props.onNewPage}>New page</button>
          {capabilities.canManageUsers && <button type="button" className="button" onClick={props.onInvite}>Invite</button>}
        </div>
      )}
      <PageTree pages={project.pages} visiblePages={visible} searching={searching} selectedId={selectedId} canEdit={capabilities.canEdit}
        onSelect={props.onSelect} onCreateChild={props.onCreateChild} onRename={props.onRename} onDelete={props.onDelete} onMove={props.onMove} />
      <nav className="project-sidebar__links" aria-label="Project links">
        {project.rag_status === 'active' && <Link to="/chat" state={{ projectId: project.id }}>{MSG.askAi}</Link>}
        <Link to="/">Home</Link>
        <button type="button" className="button button--ghost" onClick={props.onSettings}>Settings</button>
      </nav>
    </aside>
  );
}
