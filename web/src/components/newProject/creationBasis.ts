// The persisted creation basis of a repository project (spec section 3).
import { STORAGE_KEYS, readJson, writeJson } from '../../storage/localStore';
import type { CreationBasis } from '../../spec/validation';

export function saveCreationBasis(basis: CreationBasis): void {
  writeJson(STORAGE_KEYS.creationBasis, basis);
}

export function loadCreationBasis(): unknown {
  return readJson<unknown>(STORAGE_KEYS.creationBasis);
}
