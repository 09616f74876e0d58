// The New Project dialog: empty, GitHub or ZIP; cannot be dismissed by clicking outside.
import { useId, useMemo, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { createEmptyProject, createZipProject, uploadProjectZip } from '../../api/projectsApi';
import { track } from '../../analytics/analytics';
import { runtimeConfig } from '../../config/runtimeConfig';
import { CREATION_TYPES, DEFAULT_CREATION_TYPE, DEFAULT_LANGUAGE, LANGUAGES, type CreationType, type LanguageCode } from '../../spec/constants';
import { BUTTON, MSG } from '../../spec/messages';
import { canCreate, githubUrlError, parseGithubUrl, titleFromZipName } from '../../spec/validation';
import { showToast } from '../../toast/toastStore';
import { Modal } from '../Modal';
import { saveCreationBasis } from './creationBasis';
import { primaryButtonLabel } from './primaryButton';
import { useInstallationStatus } from './useInstallationStatus';
import { ZipDropZone } from './ZipDropZone';
import { zipCreationErrorText } from './zipErrors';

const TYPE_LABELS: Record<CreationType, string> = { empty: 'Empty', github: 'GitHub', zip: 'ZIP' };

export function NewProjectDialog({ onClose }: { onClose: () => void }) {
  const navigate = useNavigate();
  const [type, setType] = useState<CreationType>(DEFAULT_CREATION_TYPE);
  const [githubUrl, setGithubUrl] = useState('');
  const [title, setTitle] = useState('');
  const [titleTouched, setTitleTouched] = useState(false);
  const [language, setLanguage] = useState<LanguageCode>(DEFAULT_LANGUAGE);
  const [isPublic, setIsPublic] = useState(false);
  const [zipFile, setZipFile] = useState<File | null>(null);
  const [zipError, setZipError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [showHelp, setShowHelp] = useState(false);
  const ids = { url: useId(), urlMsg: useId(), title: useId(), language: useId(), help: useId() };

  const repo = useMemo(() => (type === 'github' ? parseGithubUrl(githubUrl) : null), [type, githubUrl]);
  const { status, checking, pollWhileInstalling } = useInstallationStatus(repo);
  const urlError = type === 'github' ? githubUrlError(githubUrl) : null;
  const label = primaryButtonLabel(type, status);
  const enabled = canCreate({ type, githubUrl, title, zipFile }) && !busy && !(type === 'github' && checking && !status);

  const onUrlChange = (value: string) => {
    setGithubUrl(value);
    const parsed = parseGithubUrl(value);
    if (parsed && !titleTouched) setTitle(parsed.repo);
  };

  const onZip = (file: File) => {
    setZipError(null);
    setZipFile(file);
    if (!titleTouched) setTitle(titleFromZipName(file.name));
  };

  const submitGithub = () => {
    if (!repo) {
      showToast({ title: MSG.cantCreateProject, text: MSG.enterValidGithubUrl, type: 'error' });
      return;
    }
    if (label === BUTTON.viewProject) {
      navigate(`/github/${repo.owner}/${repo.repo}`);
      return;
    }
    if (label === BUTTON.installApp) {
      const slug = runtimeConfig().githubAppSlug || 'docs-app';
      const installWindow = window.open(`https://github.com/apps/${encodeURIComponent(slug)}/installations/new`, '_blank', 'noopener=no');
      track('Installation Attempted', { repository: `${repo.owner}/${repo.repo}` });
      pollWhileInstalling(installWindow);
      return;
    }
    saveCreationBasis({ owner_name: repo.owner, repo_name: repo.repo, project_name: title.trim(), language, is_private: !isPublic });
    navigate('/generate/github');
  };

  const submitEmpty = async () => {
    setBusy(true);
    try {
      const created = await createEmptyProject({ name: title.trim(), is_private: !isPublic });
      track('Project Created', { type: 'empty' });
      navigate(`/projects/${created.id}`);
    } catch {
      showToast({ title: MSG.errorCreatingProject, type: 'error' });
      setBusy(false);
    }
  };

  const submitZip = async () => {
    if (!zipFile) {
      showToast({ title: MSG.cantCreateProject, text: MSG.selectZipFile, type: 'error' });
      return;
    }
    setBusy(true);
    try {
      const created = await createZipProject({ name: title.trim(), is_private: !isPublic });
      await uploadProjectZip(created.id, zipFile);
      track('Zip Project Created', { size: zipFile.size });
      navigate(`/generate/zip/${created.id}`);
    } catch (error) {
      showToast({ title: MSG.errorCreatingZipProject, text: zipCreationErrorText(error), type: 'error' });
      setBusy(false);
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (type === 'github') submitGithub();
    else if (!enabled) {
      if (type === 'zip' && !zipFile) showToast({ title: MSG.cantCreateProject, text: MSG.selectZipFile, type: 'error' });
    } else if (type === 'empty') void submitEmpty();
    else void submitZip();
  };

  return (
    <Modal title="New Project" onClose={onClose} dismissOnBackdrop={false} className="modal--wide">
      <form className="stack" onSubmit={submit} noValidate>
        <fieldset className="segmented">
          <legend className="field__label">Type</legend>
          {CREATION_TYPES.map((option) => (
            <label key={option} className={`segmented__option${type === option ? ' segmented__option--active' : ''}`}>
              <input type="radio" name="project-type" value={option} checked={type === option} onChange={() => setType(option)} />
              {TYPE_LABELS[option]}
            </label>
          ))}
        </fieldset>

        {type === 'github' && (
          <div className="field">
            <div className="field__row">
              <label className="field__label" htmlFor={ids.url}>GitHub URL</label>
              <span className="tooltip">
                <button
                  type="button"
                  className="link-button"
                  aria-describedby={showHelp ? ids.help : undefined}
                  aria-expanded={showHelp}
                  onClick={() => setShowHelp(!showHelp)}
                  onBlur={() => setShowHelp(false)}
                  onMouseEnter={() => setShowHelp(true)}
                  onMouseLeave={() => setShowHelp(false)}
                >
                  What is this?
                </button>
                {showHelp && <span role="tooltip" id={ids.help} className="tooltip__bubble">{MSG.whatIsThis}</span>}
              </span>
            </div>
            <input
              id={ids.url}
              value={githubUrl}
              onChange={(e) => onUrlChange(e.target.value)}
              placeholder="https://github.com/owner/repository"
              autoComplete="url"
              aria-invalid={urlError ? true : undefined}
              aria-describedby={ids.urlMsg}
              data-autofocus
            />
            <span id={ids.urlMsg} className="field__error" role="status">
              {urlError ?? (status?.is_project_already_exists ? MSG.projectAlreadyExists : '')}
            </span>
          </div>
        )}

        {type === 'zip' && (
          <div className="field">
            <span className="field__label">ZIP archive</span>
            <ZipDropZone file={zipFile} onFile={onZip} onError={(message) => { setZipError(message); setZipFile(null); }} />
            {zipError && <span className="field__error" role="alert">{zipError}</span>}
          </div>
        )}

        <div className="field">
          <label className="field__label" htmlFor={ids.title}>Project Title</label>
          <input
            id={ids.title}
            value={title}
            onChange={(e) => {
              setTitle(e.target.value);
              setTitleTouched(true);
            }}
            placeholder="My project"
          />
        </div>

        <div className="field">
          <label className="field__label" htmlFor={ids.language}>Language</label>
          <select id={ids.language} value={language} onChange={(e) => setLanguage(e.target.value as LanguageCode)}>
            {LANGUAGES.map((l) => <option key={l.code} value={l.code}>{l.label}</option>)}
          </select>
        </div>

        <label className="checkbox">
          <input type="checkbox" checked={isPublic} onChange={(e) => setIsPublic(e.target.checked)} />
          Public project
        </label>

        <div className="modal__actions">
          <button type="button" className="button button--ghost" onClick={onClose}>Cancel</button>
          <button type="submit" className="button button--primary" disabled={!enabled}>
            {busy && <span className="spinner spinner--small" aria-hidden="true" />}
            {label}
          </button>
        </div>
      </form>
    </Modal>
  );
}
