// One project in the list: name, status badge, visibility, gear menu (Rename, Delete)
// and the one-line editable description.
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import type { Project } from '../api/types';
import { DEFAULT_DESCRIPTION } from '../spec/constants';
import { InlineTextEditor } from './InlineTextEditor';
import { StatusBadge } from './StatusBadge';
import { projectHref } from '../pages/projects/projectHref';
import { useMenuKeyboard } from './useMenuKeyboard';

interface Props {
  project: Project;
  onRename: (project: Project) => void;
  onDelete: (project: Project) => void;
  onDescription: (project: Project, description: string) => void;
}

export function ProjectCard({ project, onRename, onDelete, onDescription }: Props) {
  const [menuOpen, setMenuOpen] = useState(false);
  const menu = useRef<HTMLDivElement>(null);
  const keys = useMenuKeyboard(menuOpen, () => setMenuOpen(false));
  useEffect(() => {
    if (!menuOpen) return;
    const onDown = (event: MouseEvent) => {
      if (!menu.current?.contains(event.target as Node)) setMenuOpen(false);
    };
    document.addEventListener('mousedown', onDown);
    return () => document.removeEventListener('mousedown', onDown);
  }, [menuOpen]);

  return (
    <li className="project-card" data-testid="project-card">
      <div className="project-card__top">
        <Link to={projectHref(project)} className="project-card__name">{project.name}</Link>
        <div className="menu" ref={menu} onKeyDown={keys.onKeyDown}>
          <button
            ref={keys.trigger}
            type="button"
            className="icon-button"
            aria-label={`Settings for ${project.name}`}
            aria-haspopup="menu"
            aria-expanded={menuOpen}
            onClick={() => setMenuOpen(!menuOpen)}
          >
            <GearIcon />
          </button>
          {menuOpen && (
            <div className="menu__list menu__list--right" role="menu" aria-label={`${project.name} actions`} ref={keys.list}>
              <button type="button" role="menuitem" className="menu__item" onClick={() => { setMenuOpen(false); onRename(project); }}>Rename</button>
              <button type="button" role="menuitem" className="menu__item menu__item--danger" onClick={() => { setMenuOpen(false); onDelete(project); }}>Delete</button>
            </div>
          )}
        </div>
      </div>
      <div className="project-card__badges">
        <StatusBadge status={project.status} />
        <span className="visibility-label">{project.visibility === 'public' ? 'Public' : 'Private'}</span>
        {project.type === 'github' && <span className="visibility-label">GitHub</span>}
      </div>
      <InlineTextEditor
        label="Description"
        value={project.description}
        defaultText={DEFAULT_DESCRIPTION}
        onSave={(text) => onDescription(project, text)}
      />
    </li>
  );
}

function GearIcon() {
  return (
    <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
      <circle cx="12" cy="12" r="3" />
      <path d="M19.4 15a1.65 1.65 0 00.33 1.82l.06.06a2 2 0 11-2.83 2.83l-.06-.06a1.65 1.65 0 00-1.82-.33 1.65 1.65 0 00-1 1.51V21a2 2 0 11-4 0v-.09A1.65 1.65 0 009 19.4a1.65 1.65 0 00-1.82.33l-.06.06a2 2 0 11-2.83-2.83l.06-.06a1.65 1.65 0 00.33-1.82 1.65 1.65 0 00-1.51-1H3a2 2 0 110-4h.09A1.65 1.65 0 004.6 9a1.65 1.65 0 00-.33-1.82l-.06-.06a2 2 0 112.83-2.83l.06.06a1.65 1.65 0 001.82.33H9a1.65 1.65 0 001-1.51V3a2 2 0 114 0v.09a1.65 1.65 0 001 1.51 1.65 1.65 0 001.82-.33l.06-.06a2 2 0 112.83 2.83l-.06.06a1.65 1.65 0 00-.33 1.82V9a1.65 1.65 0 001.51 1H21a2 2 0 110 4h-.09a1.65 1.65 0 00-1.51 1z" />
    </svg>
  );
}
