// Which projects the chat searches: every project the caller can read (is_all), or the
// ones ticked here.
import type { ProjectSelection } from './chatRequest';
import type { ChatProject } from './useChatProjects';

interface Props {
  projects: readonly ChatProject[];
  loading: boolean;
  signedIn: boolean;
  selection: ProjectSelection;
  onChange: (next: ProjectSelection) => void;
}

export function ProjectPicker({ projects, loading, signedIn, selection, onChange }: Props) {
  const toggle = (id: number, on: boolean) =>
    onChange({ all: false, ids: on ? [...selection.ids, id] : selection.ids.filter((x) => x !== id) });

  return (
    <fieldset className="chat-panel__section chat-panel__projects">
      <legend className="chat-panel__title">Projects</legend>
      <label className="checkbox">
        <input type="checkbox" checked={selection.all} onChange={(e) => onChange({ ...selection, all: e.target.checked })} />
        {signedIn ? 'All projects I can read' : 'All public projects'}
      </label>
      {loading && <p className="muted" role="status">Loading projects...</p>}
      {!loading && projects.length === 0 && !selection.all && (
        <p className="muted">{signedIn ? 'No projects yet.' : 'Open the chat from a public project, or search all public projects.'}</p>
      )}
      <ul className="chat-panel__project-list">
        {projects.map((project) => (
          <li key={project.id}>
            <label className="checkbox">
              <input type="checkbox" disabled={selection.all} checked={selection.all || selection.ids.includes(project.id)}
                onChange={(e) => toggle(project.id, e.target.checked)} />
              {project.name}
            </label>
          </li>
        ))}
      </ul>
    </fieldset>
  );
}
