// The link and video prompts (spec section 5 rules).
import type { Editor } from '@tiptap/core';
import { TextPromptDialog } from '../components/TextPromptDialog';
import { linkFromInput } from './rules/linkRule';
import { youtubeEmbed } from './rules/videoRule';
import { showToast } from '../toast/toastStore';

export type EditorDialog = { kind: 'link' | 'video'; initial: string } | null;

export function EditorDialogs({ editor, dialog, onClose }: { editor: Editor; dialog: EditorDialog; onClose: () => void }) {
  if (!dialog) return null;
  if (dialog.kind === 'link') {
    return (
      <TextPromptDialog title="Link" label="Address" initial={dialog.initial} submitLabel="Apply" onClose={onClose}
        onSubmit={(value) => {
          onClose();
          const href = linkFromInput(value);
          // an empty input removes the link; anything else invalid applies nothing
          if (!value.trim()) editor.chain().focus().extendMarkRange('link').unsetLink().run();
          else if (href) editor.chain().focus().extendMarkRange('link').setLink({ href }).run();
        }} />
    );
  }
  return (
    <TextPromptDialog title="Video" label="YouTube address" initial={dialog.initial} submitLabel="Insert" onClose={onClose}
      onSubmit={(value) => {
        const result = youtubeEmbed(value);
        if ('error' in result) {
          showToast({ title: result.error, type: 'error' });
          return;
        }
        onClose();
        editor.chain().focus().insertContent({ type: 'video', attrs: { src: result.src } }).run();
      }} />
  );
}
