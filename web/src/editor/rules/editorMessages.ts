// The editor's user-facing texts of spec section 8, word for word.
export const EDITOR_MSG = {
  diagramError: 'Error rendering diagram',
  uploading: 'Uploading image...',
  uploaded: 'Image uploaded successfully.',
  uploadFailed: 'Error uploading image. Please try again.',
  imageTooBig: 'File size too big (max 20MB).',
  imageType: 'File type not supported.',
  missingStorageToken: 'No storage token for image upload (401): the image is kept in the page as data.',
  invalidYoutube: 'Please enter a valid YouTube URL',
  titleFailed: 'Failed to update page title',
  titleFailedText: 'Please try again later',
  parseError: 'Error parsing document',
  oneDrawing: 'Only one drawing is allowed per page.',
} as const;

// Spec section 9.
export const TITLE_SYNC_DEBOUNCE_MS = 2000;
export const DRAWING_SAVE_DEBOUNCE_MS = 500;
export const COPY_RESET_MS = 1500;
export const ZOOM_MIN = 0.1;
export const ZOOM_MAX = 10;
export const ZOOM_WHEEL_STEP = 0.001;
export const ZOOM_BUTTON_STEP = 0.05;
export const DEFAULT_EDITOR_PROJECT_ID = 13;
