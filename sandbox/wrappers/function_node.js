// Function-mode wrapper for Node: `node function_node.js ENTRYPOINT SOURCE`.
// Reads the JSON array of arguments from stdin, loads SOURCE (which either defines a
// function ENTRYPOINT or sets `module.exports = {ENTRYPOINT}`; the runner appends a
// footer that exposes a module-scope function as globalThis.__mockloop_entry), calls it
// (awaiting a promise) and writes the JSON return value to stdout. The solution's own
// console output goes to stderr so it cannot corrupt the answer.
'use strict';
const fs = require('fs');

const [name, path] = process.argv.slice(2);
const args = JSON.parse(fs.readFileSync(0, 'utf8') || '[]');
const toStderr = process.stderr.write.bind(process.stderr);
process.stdout.write = toStderr;

function pick(mod) {
  if (mod && typeof mod[name] === 'function') return mod[name];
  if (typeof mod === 'function') return mod;
  if (typeof globalThis.__mockloop_entry === 'function') return globalThis.__mockloop_entry;
  if (typeof globalThis[name] === 'function') return globalThis[name];
  return undefined;
}

async function main() {
  const fn = pick(require(path));
  if (!fn) {
    toStderr(`no function named ${name} is defined\n`);
    process.exitCode = 1;
    return;
  }
  const result = await (Array.isArray(args) ? fn(...args) : fn(args));
  const text = JSON.stringify(result === undefined ? null : result);
  fs.writeSync(1, text + '\n');
}

main().catch((err) => {
  toStderr((err && err.stack) ? `${err.stack}\n` : `${String(err)}\n`);
  process.exitCode = 1;
});
