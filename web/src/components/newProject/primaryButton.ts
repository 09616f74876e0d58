// Which label the New Project dialog's primary button shows (spec section 2).
import type { InstallationStatus } from '../../api/types';
import type { CreationType } from '../../spec/constants';
import { BUTTON } from '../../spec/messages';

export function primaryButtonLabel(type: CreationType, status: InstallationStatus | null): string {
  if (type === 'zip') return BUTTON.createAndUpload;
  if (type === 'github' && status) {
    if (status.is_project_already_exists) return BUTTON.viewProject;
    if (!status.has_installation_access) return BUTTON.installApp;
  }
  return BUTTON.create;
}
