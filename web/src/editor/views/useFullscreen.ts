// Code-block fullscreen (spec section 4) through the Fullscreen API, so the page's own
// fullscreen rules apply (the project sidebar hides while an element is fullscreen).
// Where the API is missing or refused, a fixed-position class stands in; Escape leaves
// either (the browser handles it for the real one).
import { useCallback, useEffect, useRef, useState } from 'react';

export function useFullscreen(): [boolean, (element: HTMLElement | null) => void] {
  const [native, setNative] = useState(false);
  const [fallback, setFallback] = useState(false);
  const target = useRef<HTMLElement | null>(null);

  useEffect(() => {
    const onChange = () => setNative(target.current !== null && document.fullscreenElement === target.current);
    document.addEventListener('fullscreenchange', onChange);
    return () => document.removeEventListener('fullscreenchange', onChange);
  }, []);

  useEffect(() => {
    if (!fallback) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setFallback(false);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [fallback]);

  const toggle = useCallback((element: HTMLElement | null) => {
    if (native || fallback) {
      setFallback(false);
      if (document.fullscreenElement && document.fullscreenElement === target.current) void document.exitFullscreen?.().catch(() => {});
      return;
    }
    target.current = element;
    if (element?.requestFullscreen && document.fullscreenEnabled !== false) {
      element.requestFullscreen().catch(() => setFallback(true));
    } else {
      setFallback(true);
    }
  }, [native, fallback]);

  return [native || fallback, toggle];
}
