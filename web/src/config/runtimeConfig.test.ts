// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { deriveFromLocation, mergeConfig } from './runtimeConfig';

describe('base addresses', () => {
  it('derives the spec sub-hosts from a public host', () => {
    expect(deriveFromLocation({ protocol: 'https:', host: 'docs.example.com', hostname: 'docs.example.com' })).toMatchObject({
      authUrl: 'https://auth.docs.example.com',
      apiUrl: 'https://api.docs.example.com',
      ragUrl: 'https://rag.docs.example.com',
      collabUrl: 'wss://y.docs.example.com/collaboration',
      mode: 'production',
    });
  });

  it('uses the one origin for a local host', () => {
    expect(deriveFromLocation({ protocol: 'http:', host: 'localhost:8080', hostname: 'localhost' })).toMatchObject({
      authUrl: 'http://localhost:8080',
      apiUrl: 'http://localhost:8080',
      collabUrl: 'ws://localhost:8080/collaboration',
    });
  });

  it('takes /config.json values over derived ones', () => {
    const base = deriveFromLocation({ protocol: 'http:', host: 'localhost:8080', hostname: 'localhost' });
    const merged = mergeConfig(base, { mode: 'development', apiUrl: 'https://api.x/', githubAppSlug: 'docs-test', features: { projects: true } });
    expect(merged).toMatchObject({ mode: 'development', apiUrl: 'https://api.x', authUrl: 'http://localhost:8080', githubAppSlug: 'docs-test', features: { projects: true } });
    expect(mergeConfig(base, { mode: 'weird' as never }).mode).toBe('production');
    expect(mergeConfig(base, null)).toBe(base);
  });

  it('keeps derived values for the keys of plugins that are not loaded', () => {
    // docsd with projects, rbac and pages only: no authUrl, ragUrl, collabUrl or githubAppSlug.
    const base = deriveFromLocation({ protocol: 'https:', host: 'docs.example.com', hostname: 'docs.example.com' });
    const merged = mergeConfig(base, {
      mode: 'production',
      apiUrl: 'https://api.docs.example.com',
      contactEmail: '',
      features: { projects: true, rbac: true, pages: true, rag: false, collab: false, auth: false },
    });
    expect(merged).toMatchObject({
      authUrl: 'https://auth.docs.example.com',
      ragUrl: 'https://rag.docs.example.com',
      collabUrl: 'wss://y.docs.example.com/collaboration',
      githubAppSlug: '',
      features: { rag: false, collab: false },
    });
  });
});
