import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TokenRefresher, refreshDelayMs } from './tokenRefresh';
import { fakeJwt } from '../test/fetchMock';

const NOW = Date.UTC(2026, 0, 1, 12, 0, 0);

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(NOW);
});
afterEach(() => vi.useRealTimers());

function setup(initialExpInSeconds: number) {
  let token: string | null = fakeJwt(NOW / 1000 + initialExpInSeconds);
  const refresh = vi.fn(async () => {
    token = fakeJwt(Date.now() / 1000 + 900);
  });
  const refresher = new TokenRefresher({ currentToken: () => token, refresh });
  return { refresher, refresh, setRefresh: (fn: () => Promise<void>) => refresh.mockImplementation(fn) };
}

describe('token refresh', () => {
  it.each([
    [900, 780_000],
    [121, 1000],
    [120, 0],
    [30, 0],
    [-5, 0],
  ])('a token expiring in %i s is refreshed after %i ms', (expIn, delay) => {
    expect(refreshDelayMs(fakeJwt(NOW / 1000 + expIn), NOW)).toBe(delay);
  });

  it('refreshes 120 s before expiry, then again for the new token', async () => {
    const { refresher, refresh } = setup(900);
    refresher.start();
    await vi.advanceTimersByTimeAsync(779_999);
    expect(refresh).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(refresh).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(780_000);
    expect(refresh).toHaveBeenCalledTimes(2);
    refresher.stop();
  });

  it('refreshes at once when already inside the window', async () => {
    const { refresher, refresh } = setup(60);
    refresher.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(refresh).toHaveBeenCalledTimes(1);
    refresher.stop();
  });

  it('retries a failed refresh after 30 s', async () => {
    const { refresher, refresh, setRefresh } = setup(60);
    setRefresh(async () => { throw new Error('down'); });
    refresher.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(refresh).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(29_999);
    expect(refresh).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(refresh).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(refresh).toHaveBeenCalledTimes(3);
    refresher.stop();
    await vi.advanceTimersByTimeAsync(120_000);
    expect(refresh).toHaveBeenCalledTimes(3);
  });

  it('does nothing without a token', async () => {
    const refresh = vi.fn(async () => {});
    const refresher = new TokenRefresher({ currentToken: () => null, refresh });
    refresher.start();
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(refresh).not.toHaveBeenCalled();
  });
});
