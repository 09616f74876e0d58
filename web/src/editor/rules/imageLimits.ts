// Spec section 5: images must be image/* and at most 20 MB.
import { IMAGE_MAX_BYTES } from '../../spec/constants';
import { EDITOR_MSG } from './editorMessages';

/** The message that refuses the file, or null when it may be uploaded. */
export function imageFileProblem(file: { type: string; size: number }): string | null {
  if (!file.type.includes('image/')) return EDITOR_MSG.imageType;
  if (file.size > IMAGE_MAX_BYTES) return EDITOR_MSG.imageTooBig;
  return null;
}
