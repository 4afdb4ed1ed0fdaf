/// <reference types="vitest/config" />
import { cpSync, existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";

// Excalidraw loads its fonts from EXCALIDRAW_ASSET_PATH (set in Whiteboard.tsx), else from
// a CDN that air-gapped hosts cannot reach: ship the Latin ones with the build.
const EXCALIDRAW_FONTS = ["Excalifont", "Virgil", "Nunito", "Cascadia", "Liberation", "Assistant", "ComicShanns", "Lilita"];

function excalidrawFonts(): Plugin {
  return {
    name: "mockloop-excalidraw-fonts",
    apply: "build",
    closeBundle() {
      const from = fileURLToPath(new URL("node_modules/@excalidraw/excalidraw/dist/prod/fonts/", import.meta.url));
      const to = fileURLToPath(new URL("dist/excalidraw-assets/fonts/", import.meta.url));
      for (const font of EXCALIDRAW_FONTS) {
        if (existsSync(from + font)) cpSync(from + font, to + font, { recursive: true });
      }
    },
  };
}

// Django (whitenoise) serves the build from /static/; index.html is served by
// interviews.views.spa_index for every non-API path.
export default defineConfig({
  base: "/static/",
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
  },
});
