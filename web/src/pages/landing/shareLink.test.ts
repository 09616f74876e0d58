import { afterEach, describe, expect, it, vi } from 'vitest';
import { shareLink } from './ShareButtons';
import { currentToast, dismissToast } from '../../toast/toastStore';

function setNavigator(share?: unknown, clipboard?: unknown) {
  Object.defineProperty(navigator, 'share', { value: share, configurable: true });
  Object.defineProperty(navigator, 'clipboard', { value: clipboard, configurable: true });
}

afterEach(() => {
  setNavigator(undefined, undefined);
  const t = currentToast();
  if (t) dismissToast(t.id);
});

describe('share', () => {
  it('uses the system share sheet when there is one', async () => {
    const share = vi.fn(async () => {});
    setNavigator(share, undefined);
    await shareLink('https://docs.test', 'docs');
    expect(share).toHaveBeenCalledWith({ url: 'https://docs.test', title: 'docs' });
    expect(currentToast()).toBeNull();
  });

  it('copies the link and says Link copied', async () => {
    const writeText = vi.fn(async () => {});
    setNavigator(undefined, { writeText });
    await shareLink('https://docs.test', 'docs');
    expect(writeText).toHaveBeenCalledWith('https://docs.test');
    expect(currentToast()?.title).toBe('Link copied');
  });

  it('says the browser cannot share or copy otherwise', async () => {
    setNavigator(undefined, undefined);
    await shareLink('https://docs.test', 'docs');
    expect(currentToast()?.title).toBe('Your browser does not support sharing or copying to the clipboard');
  });
});
