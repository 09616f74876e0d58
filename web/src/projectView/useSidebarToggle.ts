// The left sidebar: open by default above 1024 px, Ctrl+Backslash toggles it, hidden
// while an element is fullscreen and restored afterwards.
import { useEffect, useState } from 'react';
import { PROJECT_SIDEBAR_BREAKPOINT_PX } from '../spec/constants';

export function useSidebarToggle(): [boolean, (open: boolean) => void] {
  const [open, setOpen] = useState(() => typeof window === 'undefined' || window.innerWidth > PROJECT_SIDEBAR_BREAKPOINT_PX);
  const [fullscreen, setFullscreen] = useState(false);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.ctrlKey && (event.key === '\\' || event.code === 'Backslash')) {
        event.preventDefault();
        setOpen((v) => !v);
      }
    };
    const onFullscreen = () => setFullscreen(document.fullscreenElement != null);
    window.addEventListener('keydown', onKey);
    document.addEventListener('fullscreenchange', onFullscreen);
    return () => {
      window.removeEventListener('keydown', onKey);
      document.removeEventListener('fullscreenchange', onFullscreen);
    };
  }, []);

  return [open && !fullscreen, setOpen];
}

export function useIsWide(threshold: number): boolean {
  const [wide, setWide] = useState(() => typeof window !== 'undefined' && window.innerWidth >= threshold);
  useEffect(() => {
    const onResize = () => setWide(window.innerWidth >= threshold);
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, [threshold]);
  return wide;
}
