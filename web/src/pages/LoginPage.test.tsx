import { act, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import LoginPage from './LoginPage';
import { deriveFromLocation, setRuntimeConfig } from '../config/runtimeConfig';
import { currentToast, dismissToast } from '../toast/toastStore';

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
let fetchMock: ReturnType<typeof vi.fn>;

beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: false });
  setRuntimeConfig(deriveFromLocation({ protocol: 'http:', host: 'localhost', hostname: 'localhost' }));
  fetchMock = vi.fn(async () => json({ success: true }));
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  const t = currentToast();
  if (t) dismissToast(t.id);
});

async function toCodeStep() {
  render(<MemoryRouter><LoginPage /></MemoryRouter>);
  fireEvent.click(screen.getByRole('button', { name: 'Login via Email' }));
  fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'ada@example.com' } });
  fireEvent.click(screen.getByRole('button', { name: 'Send code' }));
  await act(() => vi.advanceTimersByTimeAsync(0));
}

describe('sign-in by email', () => {
  it('sends the code with type sign-in and shows a modal that closes itself after 5 s', async () => {
    await toCodeStep();
    expect(JSON.parse(fetchMock.mock.calls[0]![1].body)).toEqual({ email: 'ada@example.com', type: 'sign-in' });
    expect(screen.getByRole('dialog', { name: 'Check your email' })).toHaveTextContent('closes in 5 s');
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(screen.getByRole('dialog')).toHaveTextContent('closes in 4 s');
    await act(() => vi.advanceTimersByTimeAsync(4000));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('enables Verify only for exactly 6 digits', async () => {
    await toCodeStep();
    const code = screen.getByLabelText('Verification code');
    const verify = screen.getByRole('button', { name: 'Verify' });
    fireEvent.change(code, { target: { value: '12345' } });
    expect(verify).toBeDisabled();
    fireEvent.change(code, { target: { value: '12a3456' } });
    expect(code).toHaveValue('123456');
    expect(verify).toBeEnabled();
  });

  it('allows a resend after 30 s and confirms it', async () => {
    await toCodeStep();
    expect(screen.getByRole('button', { name: /Resend code in 30s/ })).toBeDisabled();
    await act(() => vi.advanceTimersByTimeAsync(29_000));
    expect(screen.getByRole('button', { name: /Resend code in 1s/ })).toBeDisabled();
    await act(() => vi.advanceTimersByTimeAsync(1000));
    fireEvent.click(screen.getByRole('button', { name: 'Resend code' }));
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(currentToast()).toMatchObject({ title: 'Code resent', text: 'A new code has been sent to your email address' });
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('says Failed to request OTP when sending fails', async () => {
    fetchMock.mockImplementation(async () => json({ error: { code: 'too_many_requests' } }, 429));
    await toCodeStep();
    expect(currentToast()?.title).toBe('Failed to request OTP');
  });

  it('says Login failed when GitHub sign-in cannot start', async () => {
    fetchMock.mockImplementation(async () => json({ error: { code: 'provider_not_configured' } }, 400));
    render(<MemoryRouter><LoginPage /></MemoryRouter>);
    fireEvent.click(screen.getByRole('button', { name: 'Login via GitHub' }));
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(currentToast()).toMatchObject({ title: 'Login failed', text: 'Unable to start GitHub authentication' });
    expect(JSON.parse(fetchMock.mock.calls[0]![1].body)).toEqual({ provider: 'github', callbackURL: 'http://localhost:3000/auth-callback' });
  });
});
