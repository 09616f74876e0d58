// Spec section 2: the sidebar toggles with Ctrl+Backslash, is open by default above
// 1024 px, and is hidden while an element is fullscreen, restored afterwards.
import { act, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { useSidebarToggle } from './useSidebarToggle';

let fullscreenElement: Element | null = null;
Object.defineProperty(document, 'fullscreenElement', { configurable: true, get: () => fullscreenElement });

function setWidth(width: number) {
  Object.defineProperty(window, 'innerWidth', { configurable: true, value: width });
}

function setFullscreen(element: Element | null) {
  fullscreenElement = element;
  act(() => {
    document.dispatchEvent(new Event('fullscreenchange'));
  });
}

const ctrlBackslash = () => act(() => {
  window.dispatchEvent(new KeyboardEvent('keydown', { key: '\\', code: 'Backslash', ctrlKey: true }));
});

afterEach(() => {
  fullscreenElement = null;
  setWidth(1024);
});

describe('left sidebar toggle', () => {
  it.each([[1024, false], [1025, true], [390, false], [1600, true]])('at %i px it starts open: %s', (width, open) => {
    setWidth(width);
    const { result } = renderHook(() => useSidebarToggle());
    expect(result.current[0]).toBe(open);
  });

  it('Ctrl+Backslash toggles it; Backslash alone does not', () => {
    setWidth(1440);
    const { result } = renderHook(() => useSidebarToggle());
    ctrlBackslash();
    expect(result.current[0]).toBe(false);
    act(() => {
      window.dispatchEvent(new KeyboardEvent('keydown', { key: '\\', code: 'Backslash' }));
    });
    expect(result.current[0]).toBe(false);
    ctrlBackslash();
    expect(result.current[0]).toBe(true);
  });

  it('is hidden while an element is fullscreen and comes back as it was', () => {
    setWidth(1440);
    const { result } = renderHook(() => useSidebarToggle());
    setFullscreen(document.body);
    expect(result.current[0]).toBe(false);
    setFullscreen(null);
    expect(result.current[0]).toBe(true);

    // closed before fullscreen: still closed after
    ctrlBackslash();
    setFullscreen(document.body);
    expect(result.current[0]).toBe(false);
    setFullscreen(null);
    expect(result.current[0]).toBe(false);
  });
});
