// The portal's build: Preact (React's API at a tenth of the size, so TanStack Query runs on it),
// served by the service at /app from dist/portal. Hashed file names let the service cache assets
// for a year.
import { defineConfig } from 'vite';
import preact from '@preact/preset-vite';

export default defineConfig({
  root: import.meta.dirname,
  base: '/app/',
  plugins: [preact()],
  build: { outDir: '../dist/portal', emptyOutDir: true, target: 'es2022', sourcemap: true, manifest: true },
  server: { proxy: { '^/(affiliate|advertiser|session)': 'http://localhost:3000' } },
});
