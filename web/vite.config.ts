import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

// `npm run dev` proxies the server's paths to a docsd on localhost:8080.
const docsd = process.env.DOCS_DEV_SERVER ?? 'http://localhost:8080';

export default defineConfig({
  plugins: [react()],
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
