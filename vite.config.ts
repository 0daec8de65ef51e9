import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const alias = { '@': here('./web/src'), '@common': here('./common') };

export default defineConfig({
  root: here('./web'),
  publicDir: here('./web/public'),
  plugins: [react(), tailwindcss()],
  resolve: { alias },
  build: {
    outDir: here('./dist/web'),
    emptyOutDir: true,
    sourcemap: true,
  },
  server: {
    port: 5173,
    proxy: {
      '/api': 'http://localhost:5000',
      '/v1': 'http://localhost:5000',
      '/healthz': 'http://localhost:5000',
      '/readyz': 'http://localhost:5000',
    },
  },
  test: {
    root: here('.'),
    globalSetup: [here('./test/support/global-setup.ts')],
    projects: [
      {
        resolve: { alias },
        test: {
          name: 'server',
          root: here('.'),
          include: ['server/**/*.test.ts', 'common/**/*.test.ts', 'scripts/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        plugins: [react()],
        resolve: { alias },
        test: {
          name: 'web',
          root: here('.'),
          include: ['web/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: [here('./test/support/web-setup.ts')],
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'e2e',
          root: here('.'),
          include: ['e2e/**/*.e2e.ts'],
          environment: 'node',
          testTimeout: 90_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
