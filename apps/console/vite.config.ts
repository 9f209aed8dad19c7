import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The console is served by the API process under a strict CSP (no inline script or style, no other
// origin): nothing here may inject an inline <script>, so the module-preload polyfill is off.
export default defineConfig({
  plugins: [react()],
  resolve: {
    // The SDK's TypeScript sources, as the rest of the workspace uses them (no build of the SDK needed).
    conditions: ['verdict-source', 'browser', 'module', 'import', 'default'],
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    sourcemap: false,
    chunkSizeWarningLimit: 2048,
  },
  server: {
    // `npm run dev --workspace=@verdict/console` against `npm start` on :3000.
    proxy: {
      '/api': 'http://localhost:3000',
      '/v1': 'http://localhost:3000',
      '/trpc': 'http://localhost:3000',
    },
  },
});
