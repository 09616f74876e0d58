// In development mode lists and projects come from sample data after a 1 s delay.
import { runtimeConfig } from '../config/runtimeConfig';
import { DEV_DELAY_MS, DEV_PAGE_ID_MAX, DEV_PAGE_ID_MIN } from '../spec/constants';

export function isDevelopmentMode(): boolean {
  return runtimeConfig().mode === 'development';
}

export function withDevDelay<T>(value: T, delayMs = DEV_DELAY_MS): Promise<T> {
  return new Promise((resolve) => setTimeout(() => resolve(structuredClone(value)), delayMs));
}

export function randomDevPageId(random = Math.random): number {
  return DEV_PAGE_ID_MIN + Math.floor(random() * (DEV_PAGE_ID_MAX - DEV_PAGE_ID_MIN + 1));
}
