// Personal access tokens (docs/api.md, "Personal access tokens"). The screen reports
// failures itself, so every status is handled here (no generic toast).
import { apiRequest } from '../api/client';

export type TokenScope = 'read' | 'write';

export interface AccessToken {
  id: string;
  name: string;
  scope: TokenScope;
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
}

/** The answer to a creation: the only time the secret value is shown. */
export interface CreatedToken extends AccessToken {
  token: string;
}

export interface NewToken {
  name: string;
  /** null: never expires. */
  expiresInDays: number | null;
  scope: TokenScope;
}

const SILENT = { silent: true } as const;

export async function listTokens(): Promise<AccessToken[]> {
  const answer = await apiRequest<{ tokens?: AccessToken[] }>('/api/tokens', SILENT);
  return Array.isArray(answer?.tokens) ? answer.tokens : [];
}

export function createToken({ name, expiresInDays, scope }: NewToken): Promise<CreatedToken> {
  const body: Record<string, unknown> = { name, scope };
  if (expiresInDays !== null) body.expires_in_days = expiresInDays;
  return apiRequest<CreatedToken>('/api/tokens', { method: 'POST', body, ...SILENT });
}

export async function revokeToken(id: string): Promise<void> {
  await apiRequest(`/api/tokens/${encodeURIComponent(id)}`, { method: 'DELETE', ...SILENT });
}
