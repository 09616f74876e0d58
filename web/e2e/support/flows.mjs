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
  await page.getByLabel('Verification code').waitFor();
  const code = await readOtp(server.dataDir, email, sentAt);
  await closeCodeSentModal(page);
  await page.getByLabel('Verification code').fill(code);
  await page.getByRole('button', { name: 'Verify' }).click();
  await page.waitForURL(/\/projects$/);
  return email;
}

/** The "Check your email" modal closes itself after 5 s; close it now if it is still open. */
export async function closeCodeSentModal(page) {
  const enter = page.getByRole('dialog', { name: 'Check your email' }).getByRole('button', { name: 'Enter code' });
  if (await enter.isVisible()) await enter.click().catch(() => {});
}
