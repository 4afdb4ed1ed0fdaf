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
