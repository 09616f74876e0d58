// The name and colour others see at this user's cursor (spec section 4).
import type { SessionUser } from '../../api/types';

// all at least 4.5:1 against the white label text
const COLOURS = ['#c92a2a', '#237032', '#1864ab', '#862e9c', '#a61e4d', '#0b7285', '#a34700', '#343a40'];

export function cursorName(user: Pick<SessionUser, 'name' | 'login'> | null | undefined): string {
  return user?.name?.trim() || user?.login?.trim() || 'Guest';
}

export function cursorColour(name: string): string {
  let hash = 0;
  for (const c of name) hash = (hash * 31 + c.charCodeAt(0)) >>> 0;
  return COLOURS[hash % COLOURS.length]!;
}
