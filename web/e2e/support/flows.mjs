// What a person does, step by step, shared by the tests and the screenshot command.
import { readOtp } from './server.mjs';

let counter = 0;
export function uniqueEmail(prefix = 'e2e') {
  counter += 1;
  return `${prefix}-${Date.now()}-${process.pid}-${counter}@example.com`;
}

export async function signInByEmail(page, server, email = uniqueEmail()) {
  await page.goto(`${server.url}/login`);
  await page.getByRole('button', { name: 'Login via Email' }).click();
  await page.getByLabel('Email').fill(email);
  const sentAt = Date.now();
  await page.getByRole('button', { name: 'Send code' }).click();
  const code = await readOtp(server.dataDir, email, sentAt);
  const dialog = page.getByRole('dialog', { name: 'Check your email' });
  await dialog.waitFor();
  await dialog.getByRole('button', { name: 'Enter code' }).click();
  await page.getByLabel('Verification code').fill(code);
  await page.getByRole('button', { name: 'Verify' }).click();
  await page.waitForURL(/\/projects$/);
  return email;
}
