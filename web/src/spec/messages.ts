// The spec's message catalogue (sections 2 and 8), word for word.
export const MSG = {
  genericErrorText: 'Please contact support',
  notAuthorized: 'Not Authorized',
  errorFetchingProjects: 'Error fetching projects',
  errorCheckingInstallation: 'Error checking for GitHub App installation',
  cantCreateProject: "Can't create project",
  enterValidGithubUrl: 'Please enter a valid GitHub URL',
  selectZipFile: 'Please select a ZIP file',
  errorCreatingProject: 'Error creating project',
  errorCreatingZipProject: 'Error creating ZIP project',
  zipTooLarge: 'File is too large. Please use a ZIP file smaller than 100MB.',
  zipNetworkError: 'Network error occurred. Please try again or contact support.',
  zipUploadFailed: 'Upload failed. Please check your internet connection and try again.',
  couldNotCreateProject: 'Could not create project',
  errorWhileCreating: 'An error occurred while creating the project',
  creationInfoInvalid: 'Project creation info is missing or invalid',
  projectAlreadyExists: 'Project already exists',
  invalidGithubUrl: 'Invalid GitHub URL',
  zipFileTooBig: 'File size must be less than 100MB',
  loginFailed: 'Login failed',
  unableToStartGithub: 'Unable to start GitHub authentication',
  failedToRequestOtp: 'Failed to request OTP',
  invalidVerificationCode: 'Invalid verification code',
  tryAgainOrNewCode: 'Please try again or request a new code',
  couldNotVerifyOtp: 'Could not verify OTP',
  pleaseTryAgain: 'Please try again',
  verificationFailed: 'Verification failed',
  verificationFailedDefault: 'Invalid code. Please try again.',
  codeResent: 'Code resent',
  codeResentText: 'A new code has been sent to your email address',
  linkCopied: 'Link copied',
  shareUnsupported: 'Your browser does not support sharing or copying to the clipboard',
  noProjectsTitle: 'No projects found',
  noProjectsText: 'Create a new project to start writing documentation',
  notFoundTitle: 'Oops! This page does not exist.',
  notFoundText:
    'It seems like the page you are looking for has been moved or does not exist anymore. Please check the URL or navigate back to the home page.',
  backToHome: 'Back to Home',
  loggingIn: 'Logging in...',
  hello: 'the work is done',
  whatIsThis:
    'The GitHub App gives us access to generate your documentation and keep it up to date after each push. Your code is not used for model training or analytics.',
  noPageSelected: 'No Page Selected',
  noPageSelectedText: 'Select a page from the list on the left, or create a new one',
  untitledPage: 'Untitled',
  errorTitle: 'Error',
  failedToFetchPermissions: 'Failed to fetch project permissions',
  failedToAddUser: 'Failed to add user',
  failedToDeleteUser: 'Failed to delete user',
  failedToUpdateUserRole: 'Failed to update user role',
  askAi: 'Ask AI (Beta)',
} as const;

/** 'Showing X of Y pages' under the page search. */
export function showingPages(shown: number, total: number): string {
  return `Showing ${shown} of ${total} pages`;
}

export function genericErrorTitle(status: number): string {
  return `${status} Error`;
}

/** The primary button of the New Project dialog. */
export const BUTTON = {
  installApp: 'Install GitHub App',
  viewProject: 'View project',
  create: 'Create',
  createAndUpload: 'Create & Upload',
} as const;
