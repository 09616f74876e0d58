import { describe, expect, it } from 'vitest';
import { isTokenUnexpired, storeToken, storedToken, tokenExpiryMs } from './token';
import { fakeJwt } from '../test/fetchMock';

describe('stored token', () => {
  it('reads exp in milliseconds', () => {
    expect(tokenExpiryMs(fakeJwt(1000))).toBe(1_000_000);
    expect(tokenExpiryMs('garbage')).toBeNull();
  });
  it.each([
    [fakeJwt(Date.now() / 1000 + 60), true],
    [fakeJwt(Date.now() / 1000 - 1), false],
    ['not.a.jwt', false],
    [null, false],
  ])('%s unexpired: %s', (token, expected) => {
    expect(isTokenUnexpired(token)).toBe(expected);
  });
  it('stores under auth-jwt without a Bearer prefix', () => {
    storeToken('Bearer abc');
    expect(localStorage.getItem('auth-jwt')).toBe('abc');
    expect(storedToken()).toBe('abc');
  });
});
