// Prints the size of every file in dist/ (raw and gzip) after `vite build`.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const dist = fileURLToPath(new URL("../dist", import.meta.url));

function* walk(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* walk(path);
    else yield path;
  }
}

const kib = (n) => `${(n / 1024).toFixed(1).padStart(8)} KiB`;
let raw = 0;
let gz = 0;
const rows = [...walk(dist)].sort().map((path) => {
  const data = readFileSync(path);
  const zipped = gzipSync(data, { level: 9 }).length;
  raw += data.length;
  gz += zipped;
  return `${kib(data.length)} ${kib(zipped)} gz  ${relative(dist, path)}`;
});
console.log("\nBundle sizes (raw, gzip):");
for (const row of rows) console.log(row);
console.log(`${kib(raw)} ${kib(gz)} gz  total`);

// The JS a first visit downloads before anything lazy: the entry script of index.html and
// the chunks it imports statically (Vite lists them as modulepreload links).
const html = readFileSync(join(dist, "index.html"), "utf8");
const initial = new Set();
for (const match of html.matchAll(/(?:src|href)="\/static\/(assets\/[^"]+\.js)"/g)) initial.add(match[1]);
const importRe = /(?:^|[;\n}])\s*import\s*(?:[^"'()]*?from\s*)?["']\.\/([^"']+\.js)["']/g;
const queue = [...initial];
while (queue.length) {
  const file = queue.pop();
  const code = readFileSync(join(dist, file), "utf8");
  for (const match of code.matchAll(importRe)) {
    const dep = `assets/${match[1]}`;
    if (!initial.has(dep)) {
      initial.add(dep);
      queue.push(dep);
    }
  }
}
let initialGz = 0;
for (const file of initial) initialGz += gzipSync(readFileSync(join(dist, file)), { level: 9 }).length;
const budget = 400 * 1024;
console.log(
  `\nInitial JS (entry + static imports, ${initial.size} file(s)): ${(initialGz / 1024).toFixed(1)} KiB gz` +
    ` — budget ${budget / 1024} KiB gz${initialGz > budget ? "  OVER BUDGET" : ""}`,
);
if (initialGz > budget) process.exitCode = 1;
