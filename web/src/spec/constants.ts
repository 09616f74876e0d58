// Business constants of the spec (section 9), in one place.
export const TOAST_DEFAULT_DURATION_MS = 5000;
export const TOAST_FADE_OUT_MS = 250;

export const TOKEN_REFRESH_BEFORE_EXPIRY_MS = 120_000;
export const TOKEN_REFRESH_RETRY_MS = 30_000;

export const ZIP_MAX_BYTES = 104_857_600; // 100 MB
export const IMAGE_MAX_BYTES = 20 * 1024 * 1024; // 20 MB

export const INLINE_TEXT_MAX_LENGTH = 120;
export const INLINE_TEXT_DEFAULT = 'Build once. Share everywhere.';
export const DEFAULT_DESCRIPTION = 'No description';

export const OTP_LENGTH = 6;
export const OTP_RESEND_COOLDOWN_MS = 30_000;
export const MODAL_AUTO_CLOSE_MS = 5000;

export const INSTALL_POLL_MS = 4000;
export const PROJECT_POLL_MS = 8000;
export const URL_CHECK_DEBOUNCE_MS = 500;

export const EXAMPLE_DESCRIPTION_MAX = 45;
export const EXAMPLE_COUNT = 13;

export const SEARCH_MIN_CHARS = 2;

export const DEV_DELAY_MS = 1000;
export const DEV_PAGE_ID_MIN = 20;
export const DEV_PAGE_ID_MAX = 1019;

export const LANGUAGES = [
  { code: 'en', label: 'English' },
  { code: 'ru', label: 'Russian' },
  { code: 'de', label: 'German' },
] as const;
export type LanguageCode = (typeof LANGUAGES)[number]['code'];
export const DEFAULT_LANGUAGE: LanguageCode = 'en';

export const CREATION_TYPES = ['empty', 'github', 'zip'] as const;
export type CreationType = (typeof CREATION_TYPES)[number];
export const DEFAULT_CREATION_TYPE: CreationType = 'github';

export const PROJECT_SIDEBAR_BREAKPOINT_PX = 1024;
export const WIDE_LAYOUT_THRESHOLD_PX = 1600;
export const SIDEBAR_OFFSET_PX = 300;
export const TOC_MIN_HEADINGS = 2; // hidden with 1 or fewer
export const TREE_EXPANSION_MAX_PX = 1000;
export const COPY_FEEDBACK_MS = 1500;
