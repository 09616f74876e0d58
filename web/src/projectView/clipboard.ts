// Copies text; the spec's toasts say whether it worked.
import { MSG } from '../spec/messages';
import { showToast } from '../toast/toastStore';

export async function copyText(text: string, successTitle: string = MSG.linkCopied): Promise<boolean> {
  try {
    if (!navigator.clipboard?.writeText) throw new Error('no clipboard');
    await navigator.clipboard.writeText(text);
    showToast({ title: successTitle, type: 'success' });
    return true;
  } catch {
    showToast({ title: MSG.shareUnsupported, type: 'error' });
    return false;
  }
}
