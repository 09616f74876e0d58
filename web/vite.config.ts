import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { cpSync } from 'node:fs';
import type { Plugin } from 'vite';

// `npm run dev` proxies the server's paths to a docsd on localhost:8080.
const docsd = process.env.DOCS_DEV_SERVER ?? 'http://localhost:8080';

// Excalidraw gives every font two sources, window.EXCALIDRAW_ASSET_PATH and esm.sh.
// Chromium checks both against the Content-Security-Policy when a FontFace is made, so
// the CDN's is refused (a securitypolicyviolation per font) even when ours loads. The
// build ships the fonts (dist/excalidraw/fonts) and makes our origin the fallback
// Excalidraw appends; no drawing asks a CDN for anything.
const EXCALIDRAW_FALLBACK = /"ASSETS_FALLBACK_URL",`https:\/\/esm\.sh\/[^\n]*?\/dist\/prod\/`/;
function excalidrawFonts(): Plugin {
  const here = (path: string) => new URL(path, import.meta.url);
  return {
    name: 'excalidraw-fonts',
    apply: 'build',
    transform(code, id) {
      if (!id.includes('@excalidraw/excalidraw/dist/prod/') || !code.includes('ASSETS_FALLBACK_URL')) return null;
      const out = code.replace(EXCALIDRAW_FALLBACK, '"ASSETS_FALLBACK_URL",`${window.location.origin}/excalidraw/`');
      if (out === code) this.error("Excalidraw's esm.sh font fallback was not found: update EXCALIDRAW_FALLBACK");
      return { code: out, map: null };
    },
    closeBundle() {
      cpSync(here('./node_modules/@excalidraw/excalidraw/dist/prod/fonts'), here('./dist/excalidraw/fonts'), { recursive: true });
    },
  };
}

export default defineConfig({
  plugins: [react(), excalidrawFonts()],
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false, chunkSizeWarningLimit: 600 },
  server: {
    // the editor imports the shared schema from core/ydoc
    fs: { allow: ['.', '../core/ydoc/schema.json'] },
    proxy: {
      '/api': docsd,
      '/lab': docsd,
      '/config.json': docsd,
      '/collaboration': { target: docsd.replace(/^http/, 'ws'), ws: true },
    },
  },
  test: {
    environment: 'jsdom',
    setupFiles: ['./src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    css: false,
    restoreMocks: true,
  },
});
