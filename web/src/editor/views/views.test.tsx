import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, renderHook, screen } from '@testing-library/react';
import { useCopyState } from './useCopyState';
import { useFullscreen } from './useFullscreen';
import { MermaidDiagram } from './MermaidDiagram';

const mermaid = vi.hoisted(() => ({ render: vi.fn(), initialize: vi.fn() }));
vi.mock('mermaid', () => ({ default: mermaid }));

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

function stubClipboard(writeText: () => Promise<void>) {
  vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText: vi.fn(writeText) } });
}

describe('copy button', () => {
  it('Copy, then Copied, then Copy again after 1500 ms', async () => {
    vi.useFakeTimers();
    stubClipboard(async () => {});
    const { result } = renderHook(() => useCopyState());
    expect(result.current[0]).toBe('Copy');
    await act(() => result.current[1]('code'));
    expect(result.current[0]).toBe('Copied');
    act(() => vi.advanceTimersByTime(1499));
    expect(result.current[0]).toBe('Copied');
    act(() => vi.advanceTimersByTime(1));
    expect(result.current[0]).toBe('Copy');
  });

  it('Failed when the clipboard refuses, then Copy after 1500 ms', async () => {
    vi.useFakeTimers();
    stubClipboard(async () => {
      throw new Error('denied');
    });
    const { result } = renderHook(() => useCopyState());
    await act(() => result.current[1]('code'));
    expect(result.current[0]).toBe('Failed');
    act(() => vi.advanceTimersByTime(1500));
    expect(result.current[0]).toBe('Copy');
  });
});

describe('diagram', () => {
  it('a failing render shows Error rendering diagram', async () => {
    mermaid.render.mockRejectedValue(new Error('Parse error on line 1'));
    render(<MermaidDiagram code="graph TD; A-->" />);
    expect(await screen.findByRole('alert')).toHaveTextContent('Error rendering diagram');
  });

  it('the wheel zooms (0.001 per delta) and the page does not scroll', async () => {
    mermaid.render.mockResolvedValue({ svg: '<svg></svg>' });
    render(<MermaidDiagram code="graph TD; A-->B" />);
    const canvas = await screen.findByTestId('diagram');
    const wheel = new WheelEvent('wheel', { deltaY: -100, cancelable: true, bubbles: true });
    act(() => {
      canvas.dispatchEvent(wheel);
    });
    expect(wheel.defaultPrevented).toBe(true);
    expect(screen.getByText('110%')).toBeInTheDocument();
  });
});

describe('code-block fullscreen', () => {
  it('uses the Fullscreen API and follows fullscreenchange', async () => {
    const el = document.createElement('div');
    let current: Element | null = null;
    // jsdom has no Fullscreen API: the browser's part, played by the test
    Object.defineProperty(document, 'fullscreenElement', { configurable: true, get: () => current });
    el.requestFullscreen = vi.fn(async () => {
      current = el;
      document.dispatchEvent(new Event('fullscreenchange'));
    });
    document.exitFullscreen = vi.fn(async () => {
      current = null;
      document.dispatchEvent(new Event('fullscreenchange'));
    });
    const { result } = renderHook(() => useFullscreen());
    await act(async () => result.current[1](el));
    expect(el.requestFullscreen).toHaveBeenCalled();
    expect(result.current[0]).toBe(true);
    // Escape in the browser ends it with a fullscreenchange
    act(() => {
      current = null;
      document.dispatchEvent(new Event('fullscreenchange'));
    });
    expect(result.current[0]).toBe(false);
    await act(async () => result.current[1](el));
    await act(async () => result.current[1](el));
    expect(document.exitFullscreen).toHaveBeenCalled();
    expect(result.current[0]).toBe(false);
    delete (document as { fullscreenElement?: unknown }).fullscreenElement;
    delete (document as { exitFullscreen?: unknown }).exitFullscreen;
  });

  it('without the API a fixed-position fallback, left with Escape', async () => {
    const el = document.createElement('div');
    Object.defineProperty(el, 'requestFullscreen', { value: undefined });
    const { result } = renderHook(() => useFullscreen());
    act(() => result.current[1](el));
    expect(result.current[0]).toBe(true);
    fireEvent.keyDown(window, { key: 'Escape' });
    expect(result.current[0]).toBe(false);
  });

  it('a refused request falls back too', async () => {
    const el = document.createElement('div');
    el.requestFullscreen = vi.fn(async () => {
      throw new Error('not allowed');
    });
    const { result } = renderHook(() => useFullscreen());
    await act(async () => result.current[1](el));
    expect(result.current[0]).toBe(true);
  });
});
