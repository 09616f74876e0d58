// The spec's validation rules (section 5) as pure functions.
import { INLINE_TEXT_MAX_LENGTH, OTP_LENGTH, ZIP_MAX_BYTES, DEFAULT_DESCRIPTION, EXAMPLE_DESCRIPTION_MAX, SEARCH_MIN_CHARS } from './constants';
import type { CreationType } from './constants';
import { MSG } from './messages';

export interface ParsedRepoUrl {
  owner: string;
  repo: string;
  url: string;
}

const GITHUB_HOSTS = ['github.com', 'www.github.com'];

/** A repository URL on github.com with owner and repo; a missing scheme is added. */
export function parseGithubUrl(input: string): ParsedRepoUrl | null {
  const trimmed = input.trim();
  if (!trimmed) return null;
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  if (!GITHUB_HOSTS.includes(url.hostname.toLowerCase())) return null;
  const [owner, rawRepo] = url.pathname.split('/').filter(Boolean);
  const repo = rawRepo?.replace(/\.git$/i, '');
  if (!owner || !repo) return null;
  return { owner, repo, url: `https://github.com/${owner}/${repo}` };
}

export function githubUrlError(input: string): string | null {
  if (!input.trim()) return null;
  return parseGithubUrl(input) ? null : MSG.invalidGithubUrl;
}

export interface CreateFormState {
  type: CreationType;
  githubUrl: string;
  title: string;
  zipFile: File | null;
}

export function canCreate(form: CreateFormState): boolean {
  const hasTitle = form.title.trim().length > 0;
  switch (form.type) {
    case 'github':
      return hasTitle && parseGithubUrl(form.githubUrl) !== null;
    case 'empty':
      return hasTitle;
    case 'zip':
      return hasTitle && form.zipFile !== null;
  }
}

export interface CreationBasis {
  owner_name: string;
  repo_name: string;
  project_name: string;
  language: string;
  is_private: boolean;
  /** Set once the project exists, so a reload follows it instead of creating it again. */
  project_id?: number;
}

/** Every string field non-empty, else the spec's message. */
export function creationBasisError(basis: unknown): string | null {
  if (!basis || typeof basis !== 'object') return MSG.creationInfoInvalid;
  const b = basis as Record<string, unknown>;
  for (const key of ['owner_name', 'repo_name', 'project_name', 'language'] as const) {
    if (typeof b[key] !== 'string' || !(b[key] as string).trim()) return MSG.creationInfoInvalid;
  }
  if (typeof b.is_private !== 'boolean') return MSG.creationInfoInvalid;
  return null;
}

// application/zip, application/x-zip, application/x-zip-compressed, multipart/x-zip; not gzip.
const ZIP_MIME = /^(application|multipart)\/(x-)?zip(-compressed)?$/i;

export function zipFileError(file: { name: string; type: string; size: number }): string | null {
  const isZip = ZIP_MIME.test(file.type) || /\.zip$/i.test(file.name);
  if (!isZip) return MSG.selectZipFile;
  if (file.size >= ZIP_MAX_BYTES) return MSG.zipFileTooBig;
  return null;
}

export function titleFromZipName(name: string): string {
  return name.replace(/\.zip$/i, '');
}

/** Rename: the trimmed name, or null when it is empty (the rename is ignored). */
export function renameValue(input: string): string | null {
  const name = input.trim();
  return name ? name : null;
}

export function descriptionToSave(input: string): string {
  const text = normalizeInlineText(input);
  return text || DEFAULT_DESCRIPTION;
}

/** Inline text: trimmed, whitespace collapsed, cut at the maximum length. */
export function normalizeInlineText(input: string, maxLength = INLINE_TEXT_MAX_LENGTH): string {
  return input.replace(/\s+/g, ' ').trim().slice(0, maxLength);
}

export function isValidOtp(code: string): boolean {
  return new RegExp(`^\\d{${OTP_LENGTH}}$`).test(code);
}

export function isValidEmail(email: string): boolean {
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email.trim());
}

export function truncateExampleDescription(text: string, max = EXAMPLE_DESCRIPTION_MAX): string {
  return text.length > max ? `${text.slice(0, max)}...` : text;
}

export function isSearchActive(query: string): boolean {
  return query.trim().length >= SEARCH_MIN_CHARS;
}
