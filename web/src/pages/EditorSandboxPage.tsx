// /editor-sandbox: the same editor, offline (no server, no collaboration), with the
// intro card of spec section 2 and a link home.
import { Link } from 'react-router';
import { SiteHeader } from '../components/SiteHeader';
import { useDocumentTitle } from '../app/useDocumentTitle';
import { BlockEditor } from '../editor/BlockEditor';
import { DEFAULT_EDITOR_PROJECT_ID } from '../editor/rules/editorMessages';
import '../editor/editor.css';

const SANDBOX_START = '<h1>Sandbox</h1><p>Try the editor here: nothing is saved.</p>';

export default function EditorSandboxPage() {
  useDocumentTitle('Editor sandbox');
  return (
    <>
      <SiteHeader />
      <main className="page-container" id="main">
        <div className="card sandbox__intro">
          <h2>Editor sandbox</h2>
          <p className="muted">Type '/' on a new line to open shortcuts, and select text to style it.</p>
          <Link to="/" className="button button--ghost">Back to Home</Link>
        </div>
        {/* offline: images are read locally, nothing is uploaded */}
        <BlockEditor editable initialContent={SANDBOX_START} upload={{ projectId: DEFAULT_EDITOR_PROJECT_ID, pageId: 0, local: true }} />
      </main>
    </>
  );
}
