import { act, render, screen, fireEvent } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ToastHost } from './ToastHost';
import { currentToast, dismissToast, showToast } from '../toast/toastStore';

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  const t = currentToast();
  if (t) act(() => dismissToast(t.id));
  vi.useRealTimers();
});

describe('global toast', () => {
  it('shows title and text, fades out at 5000 ms and is gone 250 ms later', () => {
    render(<ToastHost />);
    act(() => showToast({ title: 'Saved', text: 'All good', type: 'success' }));
    expect(screen.getByText('Saved')).toBeInTheDocument();
    expect(screen.getByText('All good')).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(4999));
    expect(screen.getByTestId('toast')).not.toHaveClass('toast--leaving');
    act(() => vi.advanceTimersByTime(1));
    expect(screen.getByTestId('toast')).toHaveClass('toast--leaving');
    act(() => vi.advanceTimersByTime(249));
    expect(screen.queryByTestId('toast')).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.queryByTestId('toast')).not.toBeInTheDocument();
  });

  it('closes with its close button after the 250 ms fade', () => {
    render(<ToastHost />);
    act(() => showToast({ title: 'Oops', type: 'error', durationMs: 60_000 }));
    expect(screen.getByRole('alert')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Close notification' }));
    expect(screen.getByTestId('toast')).toHaveClass('toast--leaving');
    act(() => vi.advanceTimersByTime(250));
    expect(screen.queryByTestId('toast')).not.toBeInTheDocument();
  });

  it.each(['info', 'success', 'warning', 'error'] as const)('renders the %s type', (type) => {
    render(<ToastHost />);
    act(() => showToast({ title: type, type }));
    expect(screen.getByTestId('toast')).toHaveClass(`toast--${type}`);
  });

  it('defaults to info and 5000 ms', () => {
    showToast({ title: 'x' });
    expect(currentToast()).toMatchObject({ type: 'info', durationMs: 5000 });
  });
});
