// @vitest-environment node
import { describe, expect, it, vi } from 'vitest';
import { SAMPLE_REPOSITORIES, SAMPLE_PAGE_LIST, DEMO_PAGE, SAMPLE_DELETE_RESULT } from './devFixtures';
import { randomDevPageId, withDevDelay } from './devMode';

describe('development mode', () => {
  it.each([[0, 20], [0.5, 520], [0.999999, 1019]])('random %f gives page id %i (20..1019)', (r, id) => {
    expect(randomDevPageId(() => r)).toBe(id);
  });

  it('repository samples carry every permission flag as true', () => {
    for (const repo of SAMPLE_REPOSITORIES) {
      expect(repo.permissions).toEqual({ admin: true, maintain: true, push: true, triage: true, pull: true });
      expect(repo.owner).toHaveProperty('login');
    }
  });

  it('has a demo page, a page list and a delete result', () => {
    expect(DEMO_PAGE).toHaveProperty('content_bytea');
    expect(SAMPLE_PAGE_LIST.pages.length).toBeGreaterThan(0);
    expect(SAMPLE_DELETE_RESULT).toBeTruthy();
  });

  it('answers after 1 s', async () => {
    vi.useFakeTimers();
    const spy = vi.fn();
    void withDevDelay({ a: 1 }).then(spy);
    await vi.advanceTimersByTimeAsync(999);
    expect(spy).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(spy).toHaveBeenCalledWith({ a: 1 });
    vi.useRealTimers();
  });
});
