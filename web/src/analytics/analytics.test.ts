import { afterEach, describe, expect, it, vi } from 'vitest';
import { noAnalytics, setAnalytics, track } from './analytics';

afterEach(() => setAnalytics(noAnalytics));

describe('analytics', () => {
  it('sends nothing anywhere by default', () => {
    const fetchSpy = vi.fn();
    vi.stubGlobal('fetch', fetchSpy);
    const beacon = vi.fn();
    Object.defineProperty(navigator, 'sendBeacon', { value: beacon, configurable: true });
    for (const event of ['Installation Attempted', 'Project Created', 'Zip Project Created', 'Sign In Success'] as const) track(event);
    expect(fetchSpy).not.toHaveBeenCalled();
    expect(beacon).not.toHaveBeenCalled();
    vi.unstubAllGlobals();
  });

  it('hands events to an installed implementation, and a failing one breaks nothing', () => {
    const seen: unknown[] = [];
    setAnalytics({ track: (event, props) => seen.push([event, props]) });
    track('Sign In Success', { provider: 'github' });
    expect(seen).toEqual([['Sign In Success', { provider: 'github' }]]);
    setAnalytics({ track: () => { throw new Error('down'); } });
    expect(() => track('Project Created')).not.toThrow();
  });
});
