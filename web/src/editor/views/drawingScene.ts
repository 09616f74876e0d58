// A drawing's scene as stored in the node's `store` attribute: JSON text
// `{"elements": [...]}` of Excalidraw elements, deleted ones kept (as Excalidraw's own
// collaboration does) so that a removal wins over an older copy of the element.
// Two copies of a scene merge element by element: the higher `version` wins, a tie goes
// to the lower `versionNonce`. So a canvas that missed someone's change can never write
// its older elements over theirs.

export interface SceneElement {
  id: string;
  version: number;
  versionNonce?: number;
  isDeleted?: boolean;
  [key: string]: unknown;
}

function isElement(value: unknown): value is SceneElement {
  const e = value as SceneElement | null;
  return !!e && typeof e === 'object' && typeof e.id === 'string' && typeof e.version === 'number';
}

/** The elements of a `store` attribute; [] when it is empty or not a scene. */
export function parseScene(store: unknown): SceneElement[] {
  if (typeof store !== 'string' || !store) return [];
  try {
    const parsed = JSON.parse(store) as { elements?: unknown };
    return Array.isArray(parsed.elements) ? parsed.elements.filter(isElement) : [];
  } catch {
    return [];
  }
}

export function sceneText(elements: readonly SceneElement[]): string {
  return JSON.stringify({ elements });
}

function newer(a: SceneElement, b: SceneElement): SceneElement {
  if (a.version !== b.version) return a.version > b.version ? a : b;
  return (a.versionNonce ?? 0) <= (b.versionNonce ?? 0) ? a : b;
}

/** Both scenes in one: in `primary`'s order, elements only `other` has at the end. */
export function mergeScenes(primary: readonly SceneElement[], other: readonly SceneElement[]): SceneElement[] {
  const theirs = new Map(other.map((e) => [e.id, e]));
  const merged = primary.map((e) => {
    const twin = theirs.get(e.id);
    theirs.delete(e.id);
    return twin ? newer(e, twin) : e;
  });
  return [...merged, ...theirs.values()];
}

/** Equal for two scenes with the same elements at the same versions, whatever the order. */
export function sceneKey(elements: readonly SceneElement[]): string {
  return elements.map((e) => `${e.id}:${e.version}:${e.versionNonce ?? 0}`).sort().join(',');
}

/**
 * The `users` attribute: JSON text of the names (cursor names) of everyone who has drawn
 * on the canvas, first editor first. Answers the attribute with `name` added.
 */
export function withDrawingUser(users: unknown, name: string): string {
  let list: string[] = [];
  try {
    const parsed = typeof users === 'string' && users ? (JSON.parse(users) as unknown) : [];
    if (Array.isArray(parsed)) list = parsed.filter((u): u is string => typeof u === 'string');
  } catch {
    // an unreadable list starts again
  }
  return JSON.stringify(list.includes(name) ? list : [...list, name]);
}
