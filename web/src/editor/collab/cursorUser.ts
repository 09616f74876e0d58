// The name and colour others see at this user's cursor (spec section 4).
import type { SessionUser } from '../../api/types';

const COLOURS = ['#d9480f', '#5c940d', '#1971c2', '#9c36b5', '#c2255c', '#0c8599', '#e67700', '#495057'];

export function cursorName(user: Pick<SessionUser, 'name' | 'login'> | null | undefined): string {
  return user?.name?.trim() || user?.login?.trim() || 'Guest';
}

export function cursorColour(name: string): string {
  let hash = 0;
  for (const c of name) hash = (hash * 31 + c.charCodeAt(0)) >>> 0;
  return COLOURS[hash % COLOURS.length]!;
}
