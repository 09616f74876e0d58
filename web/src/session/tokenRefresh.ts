// Refreshes the auth token 120 s before it expires (at once inside that window) and
// retries a failed refresh after 30 s.
import { TOKEN_REFRESH_BEFORE_EXPIRY_MS, TOKEN_REFRESH_RETRY_MS } from '../spec/constants';
import { tokenExpiryMs } from './token';

export interface TokenRefresherDeps {
  currentToken: () => string | null;
  /** Fetches a fresh token (and stores it); rejects on failure. */
  refresh: () => Promise<unknown>;
  now?: () => number;
}

export function refreshDelayMs(token: string, now: number): number | null {
  const exp = tokenExpiryMs(token);
  if (exp === null) return null;
  return Math.max(0, exp - TOKEN_REFRESH_BEFORE_EXPIRY_MS - now);
}

export class TokenRefresher {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private stopped = true;

  constructor(private readonly deps: TokenRefresherDeps) {}

  start(): void {
    this.stopped = false;
    this.scheduleFromToken();
  }

  stop(): void {
    this.stopped = true;
    this.clear();
  }

  private clear(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  private scheduleFromToken(afterRefresh = false): void {
    this.clear();
    const token = this.deps.currentToken();
    if (!token || this.stopped) return;
    let delay = refreshDelayMs(token, (this.deps.now ?? Date.now)());
    if (delay === null) return;
    // A refresh that brought no later expiry must not spin: wait as after a failure.
    if (afterRefresh && delay === 0) delay = TOKEN_REFRESH_RETRY_MS;
    this.timer = setTimeout(() => void this.run(), delay);
  }

  private async run(): Promise<void> {
    this.timer = null;
    if (this.stopped) return;
    try {
      await this.deps.refresh();
      this.scheduleFromToken(true);
    } catch {
      if (this.stopped) return;
      this.timer = setTimeout(() => void this.run(), TOKEN_REFRESH_RETRY_MS);
    }
  }
}
