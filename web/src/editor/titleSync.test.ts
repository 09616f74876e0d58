import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Editor } from '@tiptap/core';
import { editorExtensions } from './extensions';
import { syncTitle } from './titleSync';
import { markdownToContent } from './extensions/SmartPaste';
import { syncPageName } from '../api/pagesApi';
import { showToast } from '../toast/toastStore';

vi.mock('../api/pagesApi', () => ({ syncPageName: vi.fn() }));
vi.mock('../toast/toastStore', () => ({ showToast: vi.fn() }));
const rename = vi.mocked(syncPageName);
const toast = vi.mocked(showToast);

let editor: Editor;
beforeEach(() => {
  vi.useFakeTimers();
  rename.mockReset();
  toast.mockReset();
  editor = new Editor({ extensions: editorExtensions({ collaborative: false, onImageFile: () => {}, onVideoLink: () => {} }), content: '<p></p>' });
});
afterEach(() => {
  editor.destroy();
  vi.useRealTimers();
});

describe('title sync (spec section 4)', () => {
  it('renames 2000 ms after the last local change, to the first non-empty line', async () => {
    rename.mockResolvedValue(undefined);
    const renamed = vi.fn();
    const stop = syncTitle(editor, 8, () => 'Untitled', renamed);
    editor.commands.insertContent('Getting');
    vi.advanceTimersByTime(1500);
    editor.commands.insertContent(' started');
    vi.advanceTimersByTime(1999);
    expect(rename).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(rename).toHaveBeenCalledTimes(1);
    expect(rename).toHaveBeenCalledWith(8, 'Getting started');
    expect(renamed).toHaveBeenCalledWith('Getting started');
    stop();
  });

  it('changes from others (y-sync) do not rename', () => {
    const stop = syncTitle(editor, 8, () => 'Untitled', () => {});
    editor.view.dispatch(editor.state.tr.insertText('From someone else').setMeta('y-sync$', { isChangeOrigin: true }));
    vi.advanceTimersByTime(5000);
    expect(rename).not.toHaveBeenCalled();
    stop();
  });

  it('the same name is not sent again', () => {
    const stop = syncTitle(editor, 8, () => 'Same', () => {});
    editor.commands.insertContent('Same');
    vi.advanceTimersByTime(2000);
    expect(rename).not.toHaveBeenCalled();
    stop();
  });

  it('a failure shows Failed to update page title / Please try again later', async () => {
    rename.mockRejectedValue(new Error('500'));
    const renamed = vi.fn();
    const stop = syncTitle(editor, 8, () => 'Untitled', renamed);
    editor.commands.insertContent('New title');
    await vi.advanceTimersByTimeAsync(2000);
    expect(toast).toHaveBeenCalledWith({ title: 'Failed to update page title', text: 'Please try again later', type: 'error' });
    expect(renamed).not.toHaveBeenCalled();
    stop();
  });
});

describe('pasted Markdown', () => {
  it('becomes structure', () => {
    expect(markdownToContent(editor, '## Usage\n\n- one\n').map((n) => n.type)).toEqual(['heading', 'bulletList']);
  });

  it('a parse failure gives a document containing Error parsing document', () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    vi.spyOn(editor.markdown!, 'parse').mockImplementation(() => {
      throw new Error('tokenizer gave up');
    });
    const content = markdownToContent(editor, '# x');
    editor.commands.setContent({ type: 'doc', content });
    expect(editor.getText()).toContain('Error parsing document');
  });
});
