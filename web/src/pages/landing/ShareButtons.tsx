// Share the site: the system share sheet, else copy the link.
import { MSG } from '../../spec/messages';
import { showToast } from '../../toast/toastStore';

export async function shareLink(url: string, title: string): Promise<void> {
  try {
    if (typeof navigator.share === 'function') {
      await navigator.share({ url, title });
      return;
    }
    if (navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(url);
      showToast({ title: MSG.linkCopied, type: 'success' });
      return;
    }
  } catch (error) {
    if ((error as Error)?.name === 'AbortError') return;
  }
  showToast({ title: MSG.shareUnsupported, type: 'warning' });
}

export function ShareButtons() {
  const url = typeof window !== 'undefined' ? window.location.origin : '';
  const text = encodeURIComponent('Documentation that writes itself from your code and stays in sync.');
  return (
    <div className="share-buttons">
      <button type="button" className="button button--primary" onClick={() => void shareLink(url, 'docs')}>
        Share or copy link
      </button>
      <a className="button" href={`https://twitter.com/intent/tweet?url=${encodeURIComponent(url)}&text=${text}`} target="_blank" rel="noreferrer">
        Post on X
      </a>
      <a className="button" href={`https://www.linkedin.com/sharing/share-offsite/?url=${encodeURIComponent(url)}`} target="_blank" rel="noreferrer">
        Share on LinkedIn
      </a>
    </div>
  );
}
