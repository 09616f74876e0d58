// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { MSG } from './messages';
import {
  canCreate, creationBasisError, descriptionToSave, githubUrlError, isValidEmail, isValidOtp, normalizeInlineText,
  parseGithubUrl, renameValue, titleFromZipName, truncateExampleDescription, zipFileError,
} from './validation';

describe('repository URL', () => {
  it.each([
    ['https://github.com/facebook/react', 'facebook', 'react'],
    ['github.com/facebook/react', 'facebook', 'react'],
    ['http://github.com/facebook/react/', 'facebook', 'react'],
    ['https://www.github.com/facebook/react.git', 'facebook', 'react'],
    ['https://github.com/facebook/react/tree/main/packages', 'facebook', 'react'],
    ['  https://github.com/a/b  ', 'a', 'b'],
  ])('%s -> %s/%s', (input, owner, repo) => {
    expect(parseGithubUrl(input)).toMatchObject({ owner, repo });
    expect(githubUrlError(input)).toBeNull();
  });

  it.each([
    'https://gitlab.com/a/b',
    'https://github.com/onlyowner',
    'https://github.com',
    'ftp://github.com/a/b',
    'https://github.com.evil.com/a/b',
    'not a url',
  ])('%s is refused with Invalid GitHub URL', (input) => {
    expect(parseGithubUrl(input)).toBeNull();
    expect(githubUrlError(input)).toBe('Invalid GitHub URL');
  });

  it('shows no error for an empty field', () => {
    expect(githubUrlError('')).toBeNull();
  });
});

describe('Create is enabled', () => {
  const zip = new File(['x'], 'a.zip', { type: 'application/zip' });
  it.each([
    ['github', 'https://github.com/a/b', 'T', null, true],
    ['github', 'https://github.com/a/b', ' ', null, false],
    ['github', 'https://gitlab.com/a/b', 'T', null, false],
    ['empty', '', 'T', null, true],
    ['empty', '', '', null, false],
    ['zip', '', 'T', zip, true],
    ['zip', '', 'T', null, false],
    ['zip', '', '', zip, false],
  ] as const)('%s url=%s title=%s file=%s -> %s', (type, githubUrl, title, zipFile, expected) => {
    expect(canCreate({ type, githubUrl, title, zipFile })).toBe(expected);
  });
});

describe('creation basis', () => {
  const good = { owner_name: 'a', repo_name: 'b', project_name: 'c', language: 'en', is_private: true };
  it('accepts a complete basis', () => expect(creationBasisError(good)).toBeNull());
  it.each([
    null, {}, { ...good, owner_name: '' }, { ...good, repo_name: ' ' }, { ...good, project_name: undefined },
    { ...good, language: '' }, { ...good, is_private: 'yes' },
  ])('refuses %j with the spec message', (basis) => {
    expect(creationBasisError(basis)).toBe('Project creation info is missing or invalid');
  });
});

describe('ZIP file', () => {
  it.each([
    [{ name: 'a.zip', type: '', size: 10 }, null],
    [{ name: 'A.ZIP', type: '', size: 10 }, null],
    [{ name: 'archive', type: 'application/zip', size: 10 }, null],
    [{ name: 'x.bin', type: 'application/x-zip-compressed', size: 10 }, null],
    [{ name: 'a.tar.gz', type: 'application/gzip', size: 10 }, 'Please select a ZIP file'],
    [{ name: 'a.zip', type: 'application/zip', size: 104857599 }, null],
    [{ name: 'a.zip', type: 'application/zip', size: 104857600 }, 'File size must be less than 100MB'],
  ])('%j -> %s', (file, message) => {
    expect(zipFileError(file)).toBe(message);
  });

  it('pre-fills the title from the name without .zip', () => {
    expect(titleFromZipName('my-repo.zip')).toBe('my-repo');
    expect(titleFromZipName('My.Repo.ZIP')).toBe('My.Repo');
  });
});

describe('rename, description and inline text', () => {
  it.each([['  New  ', 'New'], ['', null], ['   ', null]])('rename %j -> %j', (input, out) => {
    expect(renameValue(input)).toBe(out);
  });
  it.each([['', 'No description'], ['   ', 'No description'], [' a   b ', 'a b']])('description %j -> %j', (input, out) => {
    expect(descriptionToSave(input)).toBe(out);
  });
  it('trims, collapses whitespace and stops at 120 characters', () => {
    expect(normalizeInlineText('  a \n\t b  ')).toBe('a b');
    expect(normalizeInlineText('x'.repeat(200))).toHaveLength(120);
  });
});

describe('one-time code and email', () => {
  it.each([['123456', true], ['12345', false], ['1234567', false], ['12a456', false], [' 123456', false]])(
    'code %j valid: %s', (code, ok) => expect(isValidOtp(code)).toBe(ok),
  );
  it.each([['a@b.co', true], ['a@b', false], ['no at.com', false], ['', false]])('email %j valid: %s', (email, ok) =>
    expect(isValidEmail(email)).toBe(ok),
  );
});

describe('example description', () => {
  it('cuts at 45 characters plus ...', () => {
    expect(truncateExampleDescription('x'.repeat(45))).toBe('x'.repeat(45));
    expect(truncateExampleDescription('x'.repeat(46))).toBe(`${'x'.repeat(45)}...`);
  });
});

describe('catalogue', () => {
  it('keeps the spec wording', () => {
    expect(MSG.notFoundTitle).toBe('Oops! This page does not exist.');
    expect(MSG.zipTooLarge).toBe('File is too large. Please use a ZIP file smaller than 100MB.');
  });
});
