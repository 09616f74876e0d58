// Image insertion (spec sections 4, 7 and 8): limits, a placeholder while uploading,
// the returned URL on success, removal on failure, the 401 fallback that reads the image
// locally, and no upload at all for the slash-menu image in development mode.
import type { Editor } from '@tiptap/core';
import { uploadPageImage } from '../api/pagesApi';
import { showToast } from '../toast/toastStore';
import { imageFileProblem } from './rules/imageLimits';
import { EDITOR_MSG } from './rules/editorMessages';
import { addPlaceholder, placeholderPos, removePlaceholder } from './extensions/UploadPlaceholder';

export interface UploadTarget {
  projectId: number;
  pageId: number;
  /** the offline sandbox: every image is read locally instead of uploaded */
  local: boolean;
  /** development mode: the slash-menu image is read locally (spec section 7); pasted and dropped ones still upload */
  slashMenuLocal?: boolean;
}

/** Where the slash menu's image goes: the spec skips its upload in development mode. */
export function slashMenuTarget(target: UploadTarget): UploadTarget {
  return { ...target, local: target.local || !!target.slashMenuLocal };
}

export function readAsDataUrl(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('read failed'));
    reader.readAsDataURL(file);
  });
}

function insertImageAt(editor: Editor, pos: number, src: string, alt: string): void {
  editor.chain().insertContentAt(pos, { type: 'image', attrs: { src, alt } }).run();
}

let nextId = 0;

export async function insertImageFile(editor: Editor, file: File, target: UploadTarget, pos = editor.state.selection.from): Promise<void> {
  const problem = imageFileProblem(file);
  if (problem) {
    showToast({ title: problem, type: 'error' });
    return;
  }
  const alt = file.name.replace(/\.[^.]+$/, '');
  if (target.local) {
    insertImageAt(editor, pos, await readAsDataUrl(file), alt);
    return;
  }
  const id = `upload-${++nextId}`;
  editor.view.dispatch(addPlaceholder(editor.state.tr, id, pos));
  showToast({ title: EDITOR_MSG.uploading, type: 'info' });
  const finish = (src: string | null) => {
    const at = placeholderPos(editor.state, id);
    editor.view.dispatch(removePlaceholder(editor.state.tr, id));
    if (src && at !== null) insertImageAt(editor, at, src, alt);
  };
  try {
    const { url } = await uploadPageImage(target.projectId, target.pageId, file);
    if (editor.isDestroyed) return;
    finish(url);
    showToast({ title: EDITOR_MSG.uploaded, type: 'success' });
  } catch (error) {
    if (editor.isDestroyed) return;
    if ((error as { status?: number }).status === 401) {
      console.warn(EDITOR_MSG.missingStorageToken);
      finish(await readAsDataUrl(file));
      return;
    }
    finish(null);
    showToast({ title: EDITOR_MSG.uploadFailed, type: 'error' });
  }
}

/** Opens the file chooser and inserts the chosen image. */
export function chooseImage(editor: Editor, target: UploadTarget): void {
  const input = document.createElement('input');
  input.type = 'file';
  input.accept = 'image/*';
  input.hidden = true;
  // attached while open: some browsers ignore clicks on a detached file input
  document.body.append(input);
  input.onchange = () => {
    const file = input.files?.[0];
    input.remove();
    if (file) void insertImageFile(editor, file, target);
  };
  input.addEventListener('cancel', () => input.remove());
  input.click();
}
