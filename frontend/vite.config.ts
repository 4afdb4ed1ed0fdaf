/// <reference types="vitest/config" />
import { cpSync } from "node:fs";
import { fileURLToPath } from "node:url";

import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";

// Excalidraw's fonts are ours to serve (docs/decisions.md, "Excalidraw's fonts"): the build
// copies every font of the package to EXCALIDRAW_ASSETS (main.tsx points
// window.EXCALIDRAW_ASSET_PATH there, from the same base), and the package's CDN fallback — the esm.sh URL it
// adds after ours to every font face, which Chromium tries even when ours answers, and our
// CSP blocks — is rewritten to the same place, so no font is ever asked of another host.
const BASE = "/static/";
const EXCALIDRAW_ASSETS = `${BASE}excalidraw-assets/`;
const EXCALIDRAW_CDN = /`https:\/\/esm\.sh\/\$\{[^`]*`[^`]*`[^`]*\}\/dist\/(?:prod|dev)\/`/g;

function excalidrawFonts(): Plugin {
  return {
    name: "mockloop-excalidraw-fonts",
    apply: "build",
    transform(code, id) {
      if (!id.includes("/@excalidraw/excalidraw/dist/") || !code.includes("https://esm.sh/")) return null;
      // An absolute URL: Excalidraw resolves font paths against it with `new URL(path, base)`.
      const ours = `new URL(${JSON.stringify(EXCALIDRAW_ASSETS)}, globalThis.location?.href ?? "http://localhost/").href`;
      const rewritten = code.replace(EXCALIDRAW_CDN, ours);
      if (rewritten.includes("https://esm.sh/")) this.error("Excalidraw's font CDN fallback changed shape: update EXCALIDRAW_CDN");
      return { code: rewritten, map: null };
    },
    closeBundle() {
      const from = fileURLToPath(new URL("node_modules/@excalidraw/excalidraw/dist/prod/fonts/", import.meta.url));
      const to = fileURLToPath(new URL("dist/excalidraw-assets/fonts/", import.meta.url));
      cpSync(from, to, { recursive: true });
    },
  };
}

// Django (whitenoise) serves the build from /static/; index.html is served by
// interviews.views.spa_index for every non-API path.
export default defineConfig({
  base: BASE,
  plugins: [react(), excalidrawFonts()],
  define: {
    // Excalidraw reads process.env.IS_PREACT at import time.
    "process.env.IS_PREACT": JSON.stringify("false"),
  },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    assetsDir: "assets",
    chunkSizeWarningLimit: 4000,
  },
  server: {
    // `npm run dev` beside `make run`: the API and websockets live on Django.
    proxy: {
      "/api": "http://127.0.0.1:8000",
      "/admin": "http://127.0.0.1:8000",
      "/ws": { target: "ws://127.0.0.1:8000", ws: true },
    },
  },
  test: {
    environment: "jsdom",
    include: ["src/**/*.test.ts", "src/**/*.test.tsx"],
    setupFiles: ["src/i18n/testSetup.ts"],
  },
});
