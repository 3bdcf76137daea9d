import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { precompress } from './vite/precompress';
import { routeShells } from './vite/route-shells';

const backend = process.env.REEL_BACKEND ?? 'http://127.0.0.1:8080';

export default defineConfig({
  base: '/',
  plugins: [routeShells(), precompress()],
  resolve: {
    alias: {
      '@': fileURLToPath(new URL('./src', import.meta.url)),
    },
  },
  oxc: { jsx: { runtime: 'automatic' } },
  build: {
    manifest: true,
    target: 'es2022',
    sourcemap: false,
    rolldownOptions: {
      // TanStack Query marks its modules "use client" for React Server Components; this app has
      // none, so the bundler's note that the directive is dropped is noise.
      onwarn(warning, warn) {
        if (warning.code === 'MODULE_LEVEL_DIRECTIVE') return;
        warn(warning);
      },
    },
  },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: backend, changeOrigin: true },
      '/ws': {
        target: backend,
        ws: true,
        changeOrigin: true,
        // The server lets only its own origin (or WS_ALLOWED_ORIGINS) open the browser sockets; the
        // dev server's pages are the backend's own here, so say so.
        configure: (proxy) => proxy.on('proxyReqWs', (proxyReq) => proxyReq.setHeader('origin', backend)),
      },
      '/check': { target: backend, changeOrigin: true },
      '/Settings.json': { target: backend, changeOrigin: true },
    },
  },
});
