// The settings panel of the chat (spec section 2): docsN, codeN, isSearchOnly, searchScope.
import type { ChatSettings, SearchScope } from './chatSettings';
import { CountField } from './CountField';

const SCOPE_LABELS: Record<SearchScope, string> = { codeAndDocs: 'Code and docs', code: 'Code', docs: 'Docs' };

interface Props {
  settings: ChatSettings;
  onChange: (next: ChatSettings) => void;
}

export function ChatSettingsPanel({ settings, onChange }: Props) {
  const set = <K extends keyof ChatSettings>(key: K, value: ChatSettings[K]) => onChange({ ...settings, [key]: value });
  return (
    <section className="chat-panel__section stack" aria-labelledby="chat-settings-title">
      <h2 id="chat-settings-title" className="chat-panel__title">Settings</h2>
      <div className="chat-panel__counts">
        <CountField id="chat-docs-n" label="Docs results" value={settings.docsN} onChange={(v) => set('docsN', v)} />
        <CountField id="chat-code-n" label="Code results" value={settings.codeN} onChange={(v) => set('codeN', v)} />
      </div>
      <label className="checkbox">
        <input type="checkbox" checked={settings.isSearchOnly} onChange={(e) => set('isSearchOnly', e.target.checked)} />
        Search only (results without an AI answer)
      </label>
      <fieldset className="chat-panel__scope">
        <legend className="field__label">Search in</legend>
        {(Object.keys(SCOPE_LABELS) as SearchScope[]).map((scope) => (
          <label key={scope} className="checkbox">
            <input type="radio" name="chat-scope" value={scope} checked={settings.searchScope === scope}
              onChange={() => set('searchScope', scope)} />
            {SCOPE_LABELS[scope]}
          </label>
        ))}
      </fieldset>
    </section>
  );
}
