import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Editor } from '@tiptap/core';
import { editorExtensions } from './extensions';
import { insertImageFile, slashMenuTarget } from './imageUpload';
import { uploadPlaceholderKey } from './extensions/UploadPlaceholder';
import { EDITOR_MSG } from './rules/editorMessages';
import { uploadPageImage } from '../api/pagesApi';
import { showToast } from '../toast/toastStore';

vi.mock('../api/pagesApi', () => ({ uploadPageImage: vi.fn() }));
vi.mock('../toast/toastStore', () => ({ showToast: vi.fn() }));
const upload = vi.mocked(uploadPageImage);
const toast = vi.mocked(showToast);

const target = { projectId: 3, pageId: 4, local: false };
const png = () => new File([new Uint8Array([137, 80, 78, 71])], 'dot.png', { type: 'image/png' });
let editor: Editor;

function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const images = () => {
  const found: string[] = [];
  editor.state.doc.descendants((n) => {
    if (n.type.name === 'image') found.push(String(n.attrs.src));
  });
  return found;
};
const placeholders = () => uploadPlaceholderKey.getState(editor.state)?.find().length ?? 0;

beforeEach(() => {
  upload.mockReset();
  toast.mockReset();
  editor = new Editor({ element: document.createElement('div'), extensions: editorExtensions({ collaborative: false, onImageFile: () => {}, onVideoLink: () => {} }), content: '<p>text</p>' });
});
afterEach(() => editor.destroy());

describe('image upload', () => {
  it('shows a placeholder while uploading, then the returned URL, with both toasts', async () => {
    const answer = deferred<{ url: string }>();
    upload.mockReturnValue(answer.promise);
    const done = insertImageFile(editor, png(), target);
    expect(placeholders()).toBe(1);
    expect(editor.view.dom.querySelector('.image-placeholder')).toHaveTextContent('Uploading image...');
    expect(images()).toEqual([]);
    expect(toast).toHaveBeenCalledWith({ title: 'Uploading image...', type: 'info' });
    expect(upload).toHaveBeenCalledWith(3, 4, expect.any(File));
    answer.resolve({ url: '/api/image/abc.png' });
    await done;
    expect(placeholders()).toBe(0);
    expect(images()).toEqual(['/api/image/abc.png']);
    expect(toast).toHaveBeenLastCalledWith({ title: 'Image uploaded successfully.', type: 'success' });
  });

  it('removes the placeholder on failure and says so', async () => {
    upload.mockRejectedValue(Object.assign(new Error('500 Error'), { status: 500 }));
    await insertImageFile(editor, png(), target);
    expect(placeholders()).toBe(0);
    expect(images()).toEqual([]);
    expect(toast).toHaveBeenLastCalledWith({ title: EDITOR_MSG.uploadFailed, type: 'error' });
    expect(EDITOR_MSG.uploadFailed).toBe('Error uploading image. Please try again.');
  });

  it('a 401 reads the image locally and logs the storage-token message', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    upload.mockRejectedValue(Object.assign(new Error('Not Authorized'), { status: 401 }));
    await insertImageFile(editor, png(), target);
    expect(placeholders()).toBe(0);
    expect(images()).toEqual(['data:image/png;base64,iVBORw==']);
    expect(warn).toHaveBeenCalledWith(EDITOR_MSG.missingStorageToken);
    expect(toast).not.toHaveBeenCalledWith(expect.objectContaining({ type: 'error' }));
  });

  it('a local target never uploads', async () => {
    await insertImageFile(editor, png(), { ...target, local: true });
    expect(upload).not.toHaveBeenCalled();
    expect(images()).toEqual(['data:image/png;base64,iVBORw==']);
  });

  it('refuses other types and images over 20 MB before any upload', async () => {
    await insertImageFile(editor, new File(['x'], 'a.txt', { type: 'text/plain' }), target);
    expect(toast).toHaveBeenLastCalledWith({ title: 'File type not supported.', type: 'error' });
    expect(upload).not.toHaveBeenCalled();
  });
});

describe('development mode', () => {
  it('skips the upload for the slash-menu image only', () => {
    const dev = { ...target, slashMenuLocal: true };
    expect(slashMenuTarget(dev).local).toBe(true);
    // pasted and dropped images use the target as it is
    expect(dev.local).toBe(false);
    expect(slashMenuTarget(target).local).toBe(false);
    expect(slashMenuTarget({ ...target, local: true }).local).toBe(true);
  });
});
