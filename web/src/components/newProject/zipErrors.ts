// The text of 'Error creating ZIP project' for a failure (spec section 8).
import { ApiError } from '../../api/client';
import { MSG } from '../../spec/messages';

export function zipCreationErrorText(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  if ((error instanceof ApiError && error.status === 413) || /too large/i.test(message)) return MSG.zipTooLarge;
  if (/cors|cross-origin/i.test(message)) return MSG.zipNetworkError;
  if (error instanceof TypeError || /failed to fetch|networkerror|load failed/i.test(message)) return MSG.zipUploadFailed;
  return MSG.genericErrorText;
}
