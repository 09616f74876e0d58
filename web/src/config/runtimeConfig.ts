// Base addresses and environment mode from /config.json (served by docsd), falling back
// to addresses derived from the current host.
export type EnvironmentMode = 'development' | 'stage' | 'local-to-stage' | 'production';
const MODES: readonly EnvironmentMode[] = ['development', 'stage', 'local-to-stage', 'production'];

export interface RuntimeConfig {
  mode: EnvironmentMode;
  authUrl: string;
  apiUrl: string;
  ragUrl: string;
  collabUrl: string;
  features: Record<string, boolean>;
  githubAppSlug: string;
  /** The Request Demo form's address (site.contact_email); '' hides the form. */
  contactEmail: string;
}

function isLocalHost(hostname: string): boolean {
  return hostname === 'localhost' || /^[\d.]+$/.test(hostname) || hostname.includes(':') || !hostname.includes('.');
}

/** The spec's derivation: auth./api./rag. sub-hosts and y.{host}/collaboration; one origin for local hosts. */
export function deriveFromLocation(loc: { protocol: string; host: string; hostname: string }): RuntimeConfig {
  const origin = `${loc.protocol}//${loc.host}`;
  const wsScheme = loc.protocol === 'https:' ? 'wss:' : 'ws:';
  const local = isLocalHost(loc.hostname);
  const sub = (name: string) => (local ? origin : `${loc.protocol}//${name}.${loc.host}`);
  return {
    mode: 'production',
    authUrl: sub('auth'),
    apiUrl: sub('api'),
    ragUrl: sub('rag'),
    collabUrl: local ? `${wsScheme}//${loc.host}/collaboration` : `${wsScheme}//y.${loc.host}/collaboration`,
    features: {},
    githubAppSlug: '',
    contactEmail: '',
  };
}

function stripSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

export function mergeConfig(base: RuntimeConfig, fetched: Partial<RuntimeConfig> | null): RuntimeConfig {
  if (!fetched || typeof fetched !== 'object') return base;
  const pick = (value: unknown, fallback: string) => (typeof value === 'string' && value ? stripSlash(value) : fallback);
  return {
    mode: MODES.includes(fetched.mode as EnvironmentMode) ? (fetched.mode as EnvironmentMode) : base.mode,
    authUrl: pick(fetched.authUrl, base.authUrl),
    apiUrl: pick(fetched.apiUrl, base.apiUrl),
    ragUrl: pick(fetched.ragUrl, base.ragUrl),
    collabUrl: pick(fetched.collabUrl, base.collabUrl),
    features: typeof fetched.features === 'object' && fetched.features ? fetched.features : base.features,
    githubAppSlug: typeof fetched.githubAppSlug === 'string' ? fetched.githubAppSlug : base.githubAppSlug,
    contactEmail: typeof fetched.contactEmail === 'string' ? fetched.contactEmail : base.contactEmail,
  };
}

/** `VITE_DOCS_MODE=development npm run dev` serves the sample data without a server. */
function buildTimeMode(): EnvironmentMode | null {
  const mode = import.meta.env?.VITE_DOCS_MODE as string | undefined;
  return MODES.includes(mode as EnvironmentMode) ? (mode as EnvironmentMode) : null;
}

let current: RuntimeConfig = deriveFromLocation(
  typeof window !== 'undefined' ? window.location : { protocol: 'http:', host: 'localhost', hostname: 'localhost' },
);

export function runtimeConfig(): RuntimeConfig {
  return current;
}

export function setRuntimeConfig(config: RuntimeConfig): void {
  current = config;
}

export async function loadRuntimeConfig(timeoutMs = 3000): Promise<RuntimeConfig> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    const response = await fetch('/config.json', { signal: controller.signal, credentials: 'same-origin' });
    const body = response.ok ? ((await response.json()) as Partial<RuntimeConfig>) : null;
    current = mergeConfig(current, body);
  } catch {
    // Keep the derived addresses.
  } finally {
    clearTimeout(timer);
  }
  const forced = buildTimeMode();
  if (forced) current = { ...current, mode: forced };
  return current;
}
