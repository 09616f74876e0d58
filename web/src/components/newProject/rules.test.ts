// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/client';
import { otpFailureToast } from '../../pages/login/signInErrors';
import { primaryButtonLabel } from './primaryButton';
import { zipCreationErrorText } from './zipErrors';

describe('New Project primary button', () => {
  it.each([
    ['github', null, 'Create'],
    ['github', { is_project_already_exists: false, has_installation_access: false }, 'Install GitHub App'],
    ['github', { is_project_already_exists: true, has_installation_access: true }, 'View project'],
    ['github', { is_project_already_exists: false, has_installation_access: true }, 'Create'],
    ['empty', null, 'Create'],
    ['zip', null, 'Create & Upload'],
  ] as const)('%s with %j -> %s', (type, status, label) => {
    expect(primaryButtonLabel(type, status)).toBe(label);
  });
});

describe('Error creating ZIP project texts', () => {
  it.each([
    [new ApiError(413, 'payload too large'), 'File is too large. Please use a ZIP file smaller than 100MB.'],
    [new Error('Request entity too large'), 'File is too large. Please use a ZIP file smaller than 100MB.'],
    [new TypeError('CORS request did not succeed (cross-origin)'), 'Network error occurred. Please try again or contact support.'],
    [new TypeError('Failed to fetch'), 'Upload failed. Please check your internet connection and try again.'],
    [new ApiError(500, 'boom'), 'Please contact support'],
  ])('%s -> %s', (error, text) => {
    expect(zipCreationErrorText(error)).toBe(text);
  });
});

describe('sign-in code failures', () => {
  const api = (status: number, code: string, message = '') => new ApiError(status, message, { error: { code, message } });
  it.each([
    [api(400, 'invalid_otp'), 'Invalid verification code', 'Please try again or request a new code'],
    [api(400, 'otp_expired', 'The code has expired'), 'Verification failed', 'The code has expired'],
    [api(403, 'too_many_attempts'), 'Verification failed', 'Invalid code. Please try again.'],
    [api(500, 'internal'), 'Could not verify OTP', 'Please try again'],
    [new TypeError('Failed to fetch'), 'Could not verify OTP', 'Please try again'],
  ])('%s -> %s / %s', (error, title, text) => {
    expect(otpFailureToast(error)).toEqual({ title, text });
  });
});
