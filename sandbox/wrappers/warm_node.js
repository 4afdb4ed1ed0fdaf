// A warm node per submission: `node [flags] warm_node.js MODE ENTRY SOURCE OUT_CAP ERR_CAP`,
// started by the runner (sandbox/runner.py, WarmNode) inside the submission's inner sandbox.
// Every test runs SOURCE in a fresh `vm` context (a new realm: its own globals, prototypes,
// JSON, Promise ...) with a CommonJS wrapper, a fresh `process`, `console`, timers and
// `require` made for that test alone; node's start-up is paid once per submission, not per
// test (see docs/decisions.md, "A warm node per submission").
//
// Protocol, on fd 3 (a socket to the runner; fds 0-2 are /dev/null, /dev/null and the
// runner's diagnostics file):
//   runner -> node  {"input_bytes": n}\n + the test's stdin (function mode: JSON arguments)
//   node -> runner  {"exit_code": n, "signal": n|null, "cpu_us": n, "stdout_size": n,
//                    "stdout_bytes": n, "stderr_bytes": n}\n + stdout + stderr
// The runner enforces every limit from outside (CPU from /proc, wall clock, the cgroup's
// memory) by killing this process; it starts a new one for the next test if there is one.
//
// Isolation between the tests of one submission:
// - what a test can reach is either made for it (the context and its realm, `process`,
//   `console`, `module`, `require`, the timer functions, each `require`d module's object)
//   or frozen: node's own intrinsics (`--frozen-intrinsics`), `Buffer`, `TextEncoder`,
//   `TextDecoder`, `URL`, `URLSearchParams` and the functions of the modules it may
//   require. Code generation from strings is refused in this realm
//   (`--disallow-code-generation-from-strings`; each test's realm allows it), so a host
//   function's `constructor` builds nothing;
// - no module cache is shared: `require` returns a new copy of the module per test, and
//   only the modules listed in MODULES (the runner runs other programs the per-test way);
// - when a test ends, its timers are cleared, its callbacks are disarmed (a callback that
//   fires later is dropped), its open files are closed, and rejections of its promises are
//   ignored: nothing of test N runs during test N+1.
'use strict';
const fs = require('fs');
const vm = require('vm');
const util = require('util');
const pathModule = require('path');
const os = require('os');
const bufferModule = require('buffer');

const CONTROL = 3;
const [MODE, ENTRY, SOURCE, OUT_CAP_TEXT, ERR_CAP_TEXT] = process.argv.slice(2);
const OUT_CAP = Number(OUT_CAP_TEXT) + 1; // one byte more: "at the cap" vs "over it"
const ERR_CAP = Number(ERR_CAP_TEXT);
const SIGXFSZ = 25;
const ENV = Object.freeze({ ...process.env });
const NODE = process.execPath;
const MAIN = pathModule.resolve(SOURCE);
const WORK = pathModule.dirname(MAIN);
const STDIN_PATHS = new Set(['/dev/stdin', '/proc/self/fd/0', '/dev/fd/0']);
const STDOUT_PATHS = new Map([
  ['/dev/stdout', 1], ['/proc/self/fd/1', 1], ['/dev/fd/1', 1],
  ['/dev/stderr', 2], ['/proc/self/fd/2', 2], ['/dev/fd/2', 2],
]);
// util.inspect's defaults are process-wide (a program's inspect hook receives `inspect`):
// put back after every test
const INSPECT_DEFAULTS = { ...util.inspect.defaultOptions };

let code;
try {
  code = fs.readFileSync(MAIN, 'utf8').replace(/^#!.*/, '');
} catch (err) {
  process._rawDebug(`mockloop warm node: cannot read ${MAIN}: ${err.message}`);
  process.reallyExit(70);
}

// --------------------------------------------------------------------- freezing
function freezeDeep(value, seen = new Set()) {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return;
  if (seen.has(value)) return;
  seen.add(value);
  for (const key of Reflect.ownKeys(value)) {
    const desc = Object.getOwnPropertyDescriptor(value, key);
    if (desc && 'value' in desc) freezeDeep(desc.value, seen);
  }
  Object.freeze(value);
}
for (const shared of [bufferModule.Buffer, TextEncoder, TextDecoder, URL, URLSearchParams]) {
  freezeDeep(shared);
}
for (const mod of [fs, pathModule, os, util, bufferModule]) {
  for (const key of Object.keys(mod)) freezeDeep(mod[key]);
}

// --------------------------------------------------------------------- control channel
function readExactly(n) {
  const buf = Buffer.allocUnsafe(n);
  let got = 0;
  while (got < n) {
    const r = fs.readSync(CONTROL, buf, got, n - got, null);
    if (r === 0) process.reallyExit(0); // the runner is gone
    got += r;
  }
  return buf;
}

function readRequest() {
  const bytes = [];
  const one = Buffer.alloc(1);
  for (;;) {
    const r = fs.readSync(CONTROL, one, 0, 1, null);
    if (r === 0) process.reallyExit(0);
    if (one[0] === 10) break;
    bytes.push(one[0]);
  }
  const header = JSON.parse(Buffer.from(bytes).toString('utf8'));
  return readExactly(header.input_bytes);
}

function writeAll(fd, buf) {
  let off = 0;
  while (off < buf.length) off += fs.writeSync(fd, buf, off, buf.length - off);
}

// --------------------------------------------------------------------- one test
class Output {
  constructor(cap, headTail) {
    this.cap = cap;
    this.headTail = headTail;
    this.parts = [];
    this.kept = 0;
    this.size = 0;
    this.tail = Buffer.alloc(0);
  }

  add(buf) {
    this.size += buf.length;
    if (this.kept < this.cap) {
      const piece = buf.length > this.cap - this.kept ? buf.subarray(0, this.cap - this.kept) : buf;
      this.parts.push(Buffer.from(piece));
      this.kept += piece.length;
    }
    if (this.headTail) this.tail = Buffer.concat([this.tail, buf]).subarray(-this.cap);
  }

  bytes() {
    const head = Buffer.concat(this.parts);
    if (!this.headTail || this.size <= this.cap) return head;
    const half = Math.floor(this.cap / 2);
    const omitted = Buffer.from(`\n...[${this.size - 2 * half} bytes omitted]...\n`);
    return Buffer.concat([head.subarray(0, half), omitted, this.tail.subarray(-half)]);
  }
}

const STOP = Symbol('mockloop.test-ended'); // thrown to unwind a test that exited

function toBuffer(chunk, encoding) {
  if (typeof chunk === 'string') return Buffer.from(chunk, typeof encoding === 'string' ? encoding : 'utf8');
  if (ArrayBuffer.isView(chunk)) return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  throw new TypeError('The "chunk" argument must be of type string or an instance of Buffer or Uint8Array');
}

function emitterOf(target) {
  const listeners = new Map();
  const on = (name, fn) => {
    if (!listeners.has(name)) listeners.set(name, []);
    listeners.get(name).push(fn);
    return target;
  };
  target.on = on;
  target.addListener = on;
  target.prependListener = on;
  target.once = (name, fn) => {
    const once = (...args) => { target.off(name, once); return fn.apply(target, args); };
    once.listener = fn;
    return on(name, once);
  };
  target.off = (name, fn) => {
    const list = listeners.get(name) || [];
    const i = list.findIndex((f) => f === fn || f.listener === fn);
    if (i >= 0) list.splice(i, 1);
    return target;
  };
  target.removeListener = target.off;
  target.removeAllListeners = (name) => {
    if (name === undefined) listeners.clear(); else listeners.delete(name);
    return target;
  };
  target.listeners = (name) => (listeners.get(name) || []).map((f) => f.listener || f);
  target.listenerCount = (name) => (listeners.get(name) || []).length;
  target.emit = (name, ...args) => {
    const list = (listeners.get(name) || []).slice();
    for (const fn of list) fn.apply(target, args);
    return list.length > 0;
  };
  target.setMaxListeners = () => target;
  return listeners;
}

// How node reports an uncaught error: where it was thrown in the source (file:line, the
// line, a caret), then its stack, without this harness's own frames.
function describe(err) {
  let stack;
  try {
    stack = err && typeof err.stack === 'string' ? err.stack : `Uncaught ${util.inspect(err)}`;
  } catch {
    return 'Uncaught exception';
  }
  const lines = stack.split('\n');
  const cut = lines.findIndex((line) => line.includes(__filename));
  if (cut > 0) lines.length = cut;
  const at = new RegExp(`${MAIN.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:(\\d+):(\\d+)`).exec(stack);
  if (!at) return lines.join('\n');
  const line = code.split('\n')[Number(at[1]) - 1] ?? '';
  const caret = `${' '.repeat(Math.max(0, Number(at[2]) - 1))}^`;
  return `${MAIN}:${at[1]}\n${line}\n${caret}\n\n${lines.join('\n')}`;
}

let current = null; // the running test

class Test {
  constructor(input) {
    this.input = input;
    this.stdout = new Output(OUT_CAP, false);
    this.stderr = new Output(ERR_CAP, true);
    this.pending = 0;
    this.timers = new Set();
    this.files = new Set();
    this.exitCode = undefined;
    this.exit = null; // {code, signal} once the test must end
    this.ended = false;
    this.checking = false; // an end-of-test check is scheduled
    this.cpu = process.cpuUsage();
    this.stdinPos = 0;
    this.context = vm.createContext(Object.create(null), {
      name: 'test',
      codeGeneration: { strings: true, wasm: true },
    });
    this.realm = vm.runInContext('({ JSON, Promise, Error })', this.context);
    this.process = this.makeProcess();
    this.install();
  }

  // ---- output
  write(fd, chunk, encoding) {
    if (this.ended || this.exit) throw STOP;
    const buf = toBuffer(chunk, encoding);
    if (fd === 2) {
      this.stderr.add(buf);
      return;
    }
    if (MODE === 'function') {
      this.stderr.add(buf); // the solution's own output must not corrupt the answer
      return;
    }
    this.stdout.add(buf);
    if (this.stdout.size > OUT_CAP) { // as RLIMIT_FSIZE would: the program dies
      this.exit = { code: null, signal: SIGXFSZ };
      throw STOP;
    }
  }

  stopFor(code) {
    if (!this.exit) this.exit = { code: code === undefined ? this.exitCode ?? 0 : code, signal: null };
    throw STOP;
  }

  // ---- callbacks of this test only
  guard(fn) {
    const test = this;
    this.pending += 1;
    let done = false;
    return function guarded(...args) {
      if (!done) { done = true; test.pending -= 1; }
      if (current !== test || test.ended || test.exit) return undefined;
      try {
        return fn.apply(this, args);
      } catch (err) {
        test.uncaught(err);
        return undefined;
      } finally {
        test.check();
      }
    };
  }

  release() {
    this.pending -= 1;
    this.check();
  }

  uncaught(err) {
    if (err === STOP || this.exit) return;
    this.stderr.add(Buffer.from(`${describe(err)}\n\nNode.js ${process.version}\n`));
    this.exit = { code: 1, signal: null };
  }

  check() {
    if (this.ended || this.checking) return;
    this.checking = true;
    setImmediate(() => {
      this.checking = false;
      if (this.ended) return;
      if (this.exit || this.pending <= 0) this.end();
    });
  }

  // ---- timers: the host's, cleared when the test ends
  timer(set, clear, fn, args, repeat) {
    if (typeof fn !== 'function') {
      throw new TypeError('The "callback" argument must be of type function');
    }
    const test = this;
    const entry = { clear, cleared: false };
    this.pending += 1;
    entry.handle = set(() => {
      if (current !== test || test.ended || test.exit) return;
      if (!repeat) {
        entry.cleared = true;
        test.timers.delete(entry);
        test.pending -= 1;
      }
      try {
        fn(...args);
      } catch (err) {
        test.uncaught(err);
      } finally {
        test.check();
      }
    });
    this.timers.add(entry);
    const token = {
      ref: () => token,
      unref: () => token,
      hasRef: () => true,
      refresh: () => token,
      close: () => { token.clear(); return token; },
      [Symbol.toPrimitive]: () => 0,
    };
    Object.defineProperty(token, 'clear', {
      value: () => {
        if (entry.cleared) return;
        entry.cleared = true;
        clear(entry.handle);
        test.timers.delete(entry);
        test.release();
      },
    });
    return token;
  }

  // ---- fs: the real module's functions, but stdin/stdout/stderr are this test's
  makeFs() {
    const test = this;
    const copy = {};
    // callbacks and promises of the real module's asynchronous calls are this test's:
    // disarmed when it ends, so none of them runs during a later test
    const settleHere = (promise) => new test.realm.Promise((resolve, reject) => {
      const done = test.guard((ok, value) => (ok ? resolve(value) : reject(value)));
      promise.then((value) => done(true, value), (err) => done(false, err));
    });
    const asynchronous = (fn) => (...args) => {
      const guarded = args.map((arg) => (typeof arg === 'function' ? test.guard(arg) : arg));
      const result = fn(...guarded);
      return result instanceof Promise ? settleHere(result) : result;
    };
    for (const key of Object.keys(fs)) {
      const value = fs[key];
      const plain = typeof value !== 'function' || key.endsWith('Sync') || /^[A-Z]/.test(key);
      copy[key] = plain ? value : asynchronous(value);
    }
    copy.constants = fs.constants;
    copy.promises = {};
    for (const [key, value] of Object.entries(fs.promises)) {
      copy.promises[key] = typeof value === 'function' ? asynchronous(value) : value;
    }
    const isStdin = (p) => p === 0 || (typeof p === 'string' && STDIN_PATHS.has(p));
    const outFd = (p) => (p === 1 || p === 2 ? p : (typeof p === 'string' ? STDOUT_PATHS.get(p) : undefined));
    const refuse = (p) => {
      if (p === CONTROL || (typeof p === 'string' && /^\/(proc\/self|dev)\/fd\/3$/.test(p))) {
        const err = new Error('EBADF: bad file descriptor');
        err.code = 'EBADF';
        throw err;
      }
    };
    const encodingOf = (options) => (typeof options === 'string' ? options : options && options.encoding);
    copy.readFileSync = (p, options) => {
      if (isStdin(p)) {
        const enc = encodingOf(options);
        const rest = test.input.subarray(test.stdinPos);
        test.stdinPos = test.input.length;
        return enc ? rest.toString(enc) : Buffer.from(rest);
      }
      refuse(p);
      return fs.readFileSync(p, options);
    };
    copy.readSync = (fd, buffer, offsetOrOptions, length, position) => {
      if (fd === 0) {
        let offset = offsetOrOptions;
        if (typeof offsetOrOptions === 'object' && offsetOrOptions !== null) {
          ({ offset = 0, length = buffer.byteLength - offset } = offsetOrOptions);
        }
        offset = offset || 0;
        if (length === undefined) length = buffer.byteLength - offset;
        const n = Math.min(length, test.input.length - test.stdinPos);
        const target = new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
        target.set(test.input.subarray(test.stdinPos, test.stdinPos + n), offset);
        test.stdinPos += n;
        return n;
      }
      refuse(fd);
      return fs.readSync(fd, buffer, offsetOrOptions, length, position);
    };
    copy.writeSync = (fd, data, ...rest) => {
      const target = outFd(fd);
      if (target !== undefined) {
        let buf = toBuffer(data, typeof rest[0] === 'string' ? rest[0] : rest[1]);
        if (typeof data !== 'string' && typeof rest[0] === 'number') {
          buf = buf.subarray(rest[0], rest[1] === undefined ? undefined : rest[0] + rest[1]);
        }
        test.write(target, buf);
        return buf.length;
      }
      refuse(fd);
      return fs.writeSync(fd, data, ...rest);
    };
    copy.writeFileSync = (p, data, options) => {
      const target = outFd(p);
      if (target !== undefined) return test.write(target, toBuffer(data, encodingOf(options)));
      refuse(p);
      return fs.writeFileSync(p, data, options);
    };
    copy.appendFileSync = (p, data, options) => {
      const target = outFd(p);
      if (target !== undefined) return test.write(target, toBuffer(data, encodingOf(options)));
      refuse(p);
      return fs.appendFileSync(p, data, options);
    };
    copy.openSync = (p, ...rest) => {
      refuse(p);
      if (isStdin(p)) return 0;
      if (outFd(p) !== undefined) return outFd(p);
      const fd = fs.openSync(p, ...rest);
      test.files.add(fd);
      return fd;
    };
    copy.closeSync = (fd) => {
      if (fd === 0 || fd === 1 || fd === 2) return;
      refuse(fd);
      test.files.delete(fd);
      fs.closeSync(fd);
    };
    copy.fstatSync = (fd, options) => {
      refuse(fd);
      return fs.fstatSync(fd, options);
    };
    copy.readFile = (p, options, callback) => {
      const cb = typeof options === 'function' ? options : callback;
      const opts = typeof options === 'function' ? undefined : options;
      const done = test.guard(cb);
      let result;
      let error = null;
      try {
        result = copy.readFileSync(p, opts);
      } catch (err) {
        error = err;
      }
      setImmediate(() => done(error, result));
    };
    for (const name of ['readFileSync', 'readSync', 'writeSync', 'writeFileSync', 'appendFileSync',
      'openSync', 'closeSync', 'fstatSync', 'readFile']) {
      Object.defineProperty(copy[name], 'name', { value: name });
    }
    return copy;
  }

  // ---- readline over this test's stdin
  makeReadline() {
    const test = this;
    const createInterface = (options) => {
      const input = options && options.input !== undefined ? options.input : options;
      const rl = {};
      emitterOf(rl);
      let closed = false;
      const lines = [];
      const waiting = [];
      rl.close = () => {
        if (closed) return;
        closed = true;
        rl.emit('close');
        while (waiting.length) waiting.shift()({ value: undefined, done: true });
      };
      rl.pause = () => rl;
      rl.resume = () => rl;
      const output = options && options.output;
      let promptText = '> ';
      const show = (text) => { if (output && typeof output.write === 'function') output.write(text); };
      rl.setPrompt = (text) => { promptText = String(text); };
      rl.getPrompt = () => promptText;
      rl.prompt = () => show(promptText);
      rl.write = (text) => show(text);
      rl.question = (query, cb) => {
        show(String(query));
        if (typeof cb === 'function') rl.once('line', cb);
      };
      const iterator = {
        next: () => {
          if (lines.length) return test.realm.Promise.resolve({ value: lines.shift(), done: false });
          if (closed) return test.realm.Promise.resolve({ value: undefined, done: true });
          return new test.realm.Promise((resolve) => waiting.push(resolve));
        },
        return: () => { rl.close(); return test.realm.Promise.resolve({ value: undefined, done: true }); },
        [Symbol.asyncIterator]() { return iterator; },
      };
      rl[Symbol.asyncIterator] = () => iterator;
      let buffered = '';
      const deliver = (line) => {
        if (waiting.length) waiting.shift()({ value: line, done: false });
        else if (rl.listenerCount('line')) rl.emit('line', line);
        else lines.push(line);
      };
      if (input && typeof input.on === 'function') {
        if (typeof input.setEncoding === 'function') input.setEncoding('utf8');
        input.on('data', (chunk) => {
          buffered += String(chunk);
          const parts = buffered.split(/\r?\n/);
          buffered = parts.pop();
          for (const line of parts) {
            if (closed) return;
            deliver(line);
          }
        });
        input.on('end', () => {
          if (buffered.length && !closed) deliver(buffered);
          buffered = '';
          rl.close();
        });
      }
      return rl;
    };
    return { createInterface, Interface: function Interface(options) { return createInterface(options); } };
  }

  makeStdin() {
    const test = this;
    const stdin = { fd: 0, isTTY: false, readable: true };
    emitterOf(stdin);
    const baseOn = stdin.on;
    let encoding = null;
    let started = false;
    let flowing = false;
    const start = () => {
      if (started) return;
      started = true;
      const done = test.guard(() => {
        const rest = test.input.subarray(test.stdinPos);
        test.stdinPos = test.input.length;
        if (rest.length) stdin.emit('data', encoding ? rest.toString(encoding) : Buffer.from(rest));
        stdin.readable = false;
        stdin.emit('end');
        stdin.emit('close');
      });
      setImmediate(done);
    };
    stdin.on = (name, fn) => {
      baseOn(name, fn);
      if (name === 'data' || name === 'end' || name === 'readable') { flowing = true; start(); }
      return stdin;
    };
    stdin.addListener = stdin.on;
    const baseOnce = stdin.once;
    stdin.once = (name, fn) => {
      baseOnce(name, fn);
      if (name === 'data' || name === 'end' || name === 'readable') { flowing = true; start(); }
      return stdin;
    };
    stdin.setEncoding = (enc) => { encoding = enc || 'utf8'; return stdin; };
    stdin.resume = () => { flowing = true; start(); return stdin; };
    stdin.pause = () => stdin;
    stdin.read = () => {
      if (test.stdinPos >= test.input.length) return null;
      const rest = test.input.subarray(test.stdinPos);
      test.stdinPos = test.input.length;
      return encoding ? rest.toString(encoding) : Buffer.from(rest);
    };
    stdin.setRawMode = () => stdin;
    stdin.unref = () => stdin;
    stdin.ref = () => stdin;
    stdin.destroy = () => stdin;
    stdin[Symbol.asyncIterator] = async function* chunks() {
      if (flowing) return;
      const rest = test.input.subarray(test.stdinPos);
      test.stdinPos = test.input.length;
      if (rest.length) yield encoding ? rest.toString(encoding) : Buffer.from(rest);
    };
    return stdin;
  }

  makeStream(fd) {
    const test = this;
    const stream = { fd, isTTY: false, writable: true, columns: undefined };
    emitterOf(stream);
    stream.write = (chunk, encoding, cb) => {
      test.write(fd, chunk, encoding);
      const callback = typeof encoding === 'function' ? encoding : cb;
      if (typeof callback === 'function') setImmediate(test.guard(callback));
      return true;
    };
    stream.end = (chunk, encoding, cb) => {
      if (chunk !== undefined && chunk !== null && typeof chunk !== 'function') test.write(fd, chunk, encoding);
      return stream;
    };
    stream.cork = () => {};
    stream.uncork = () => {};
    stream.getWindowSize = () => [80, 24];
    stream.hasColors = () => false;
    return stream;
  }

  makeProcess() {
    const test = this;
    // data in the test's realm: its own prototypes (and util.inspect prints it plainly)
    const data = this.realm.JSON.parse(JSON.stringify({
      versions: process.versions, release: process.release, argv: [NODE, MAIN], env: ENV,
    }));
    const proc = {
      title: NODE,
      version: process.version,
      versions: data.versions,
      arch: process.arch,
      platform: process.platform,
      release: data.release,
      pid: process.pid,
      ppid: process.ppid,
      execPath: NODE,
      argv0: NODE,
      argv: data.argv,
      env: data.env,
      config: this.realm.JSON.parse('{}'),
      features: this.realm.JSON.parse('{}'),
      stdin: this.makeStdin(),
      stdout: this.makeStream(1),
      stderr: this.makeStream(2),
      exit(code) { test.stopFor(code === undefined ? undefined : Number(code) | 0); },
      abort() { test.stopFor(134); },
      cwd: () => WORK,
      umask: () => 0o22,
      uptime: () => process.uptime(),
      hrtime: Object.assign((prev) => process.hrtime(prev), { bigint: () => process.hrtime.bigint() }),
      cpuUsage: (prev) => process.cpuUsage(prev),
      memoryUsage: Object.assign(() => process.memoryUsage(), { rss: () => process.memoryUsage.rss() }),
      resourceUsage: () => process.resourceUsage(),
      nextTick: (fn, ...args) => {
        if (typeof fn !== 'function') throw new TypeError('The "callback" argument must be of type function');
        process.nextTick(test.guard(() => fn(...args)));
      },
      emitWarning: (warning) => {
        const text = typeof warning === 'string' ? `Warning: ${warning}` : String(warning && warning.stack);
        test.stderr.add(Buffer.from(`(node:${process.pid}) ${text}\n`));
      },
    };
    Object.defineProperty(proc, 'exitCode', {
      get: () => test.exitCode,
      set: (value) => { test.exitCode = value; },
      enumerable: true,
    });
    emitterOf(proc);
    return proc;
  }

  makeConsole() {
    const test = this;
    const out = (fd) => (...args) => test.write(fd, indented(`${util.format(...args)}\n`));
    const counts = new Map();
    const timers = new Map();
    let indent = ''; // console.group's
    const indented = (text) => (indent ? text.replace(/^(?=.)/gm, indent) : text);
    return {
      log: out(1),
      info: out(1),
      debug: out(1),
      dir: (value, options) => test.write(1, indented(`${util.inspect(value, options)}\n`)),
      error: out(2),
      warn: out(2),
      trace: (...args) => test.write(2, indented(`Trace: ${util.format(...args)}\n`)),
      assert: (ok, ...args) => {
        if (!ok) test.write(2, indented(`Assertion failed${args.length ? `: ${util.format(...args)}` : ''}\n`));
      },
      count: (label = 'default') => {
        counts.set(label, (counts.get(label) || 0) + 1);
        test.write(1, indented(`${label}: ${counts.get(label)}\n`));
      },
      time: (label = 'default') => { timers.set(label, process.hrtime.bigint()); },
      timeEnd: (label = 'default') => {
        const start = timers.get(label);
        if (start === undefined) return;
        timers.delete(label);
        test.write(1, indented(`${label}: ${(Number(process.hrtime.bigint() - start) / 1e6).toFixed(3)}ms\n`));
      },
      group: (...labels) => {
        if (labels.length) out(1)(...labels);
        indent += '  ';
      },
      groupEnd: () => { indent = indent.slice(2); },
    };
  }

  makeRequire(module) {
    const test = this;
    const cache = new Map();
    const made = {
      fs: () => test.makeFs(),
      readline: () => test.makeReadline(),
      path: () => ({ ...pathModule, posix: { ...pathModule.posix }, win32: { ...pathModule.win32 } }),
      os: () => ({ ...os, constants: os.constants }),
      buffer: () => ({ ...bufferModule }),
      util: () => ({ ...util, types: { ...util.types } }),
    };
    const require = (name) => {
      const key = typeof name === 'string' ? name.replace(/^node:/, '') : name;
      if (!Object.prototype.hasOwnProperty.call(made, key)) {
        const err = new (test.realm.Error)(`Cannot find module '${name}'`);
        err.code = 'MODULE_NOT_FOUND';
        throw err;
      }
      if (!cache.has(key)) cache.set(key, made[key]());
      return cache.get(key);
    };
    require.main = module;
    require.cache = {};
    require.resolve = (name) => name;
    return require;
  }

  install() {
    const g = vm.runInContext('globalThis', this.context);
    const test = this;
    const timerPair = (set, clear, repeat) => [
      (fn, ms, ...args) => test.timer((cb) => set(cb, ms), clear, fn, args, repeat),
      (token) => { if (token && typeof token.clear === 'function') token.clear(); },
    ];
    const [setTimeoutFn, clearTimeoutFn] = timerPair(setTimeout, clearTimeout, false);
    setTimeoutFn[util.promisify.custom] = (ms, value) => new test.realm.Promise((resolve) => {
      setTimeoutFn(resolve, ms, value);
    });
    const [setIntervalFn, clearIntervalFn] = timerPair(setInterval, clearInterval, true);
    const [setImmediateFn, clearImmediateFn] = timerPair((cb) => setImmediate(cb), clearImmediate, false);
    const globals = {
      global: g,
      process: this.process,
      console: this.makeConsole(),
      Buffer: bufferModule.Buffer,
      TextEncoder,
      TextDecoder,
      URL,
      URLSearchParams,
      atob: (text) => atob(text),
      btoa: (text) => btoa(text),
      structuredClone: (value, options) => structuredClone(value, options),
      queueMicrotask: (fn) => this.realm.Promise.resolve().then(this.guard(fn)),
      performance: { now: () => performance.now(), timeOrigin: performance.timeOrigin },
      setTimeout: setTimeoutFn,
      clearTimeout: clearTimeoutFn,
      setInterval: setIntervalFn,
      clearInterval: clearIntervalFn,
      setImmediate: setImmediateFn,
      clearImmediate: clearImmediateFn,
    };
    for (const [key, value] of Object.entries(globals)) {
      Object.defineProperty(g, key, { value, writable: true, configurable: true, enumerable: false });
    }
    this.global = g;
  }

  run() {
    current = this;
    const module = vm.runInContext('({ exports: {}, children: [], paths: [] })', this.context);
    Object.assign(module, { id: '.', path: WORK, filename: MAIN, loaded: false, parent: null });
    const require = this.makeRequire(module);
    module.require = require;
    this.pending += 1; // the main script itself
    try {
      const fn = vm.compileFunction(code, ['exports', 'require', 'module', '__filename', '__dirname'], {
        filename: MAIN,
        parsingContext: this.context,
      });
      fn.call(module.exports, module.exports, require, module, MAIN, WORK);
      module.loaded = true;
      if (MODE === 'function') this.callEntry(module);
    } catch (err) {
      this.uncaught(err);
    }
    this.pending -= 1;
    this.check();
  }

  callEntry(module) {
    const g = this.global;
    const mod = module.exports;
    let fn;
    if (mod && typeof mod[ENTRY] === 'function') fn = mod[ENTRY];
    else if (typeof mod === 'function') fn = mod;
    else if (typeof g.__mockloop_entry === 'function') fn = g.__mockloop_entry;
    else if (typeof g[ENTRY] === 'function') fn = g[ENTRY];
    if (!fn) {
      this.stderr.add(Buffer.from(`no function named ${ENTRY} is defined\n`));
      this.exit = { code: 1, signal: null };
      return;
    }
    let answer;
    try {
      const args = this.realm.JSON.parse(this.input.toString('utf8') || '[]');
      answer = Array.isArray(args) ? fn(...args) : fn(args);
    } catch (err) {
      this.uncaughtPlain(err);
      return;
    }
    const settle = this.guard((ok, value) => {
      if (!ok) {
        this.uncaughtPlain(value);
        return;
      }
      const text = this.realm.JSON.stringify(value === undefined ? null : value);
      this.stdout.add(Buffer.from(`${text}\n`));
    });
    this.realm.Promise.resolve(answer).then((v) => settle(true, v), (e) => settle(false, e));
  }

  uncaughtPlain(err) {
    const text = err && err.stack ? `${err.stack}\n` : `${String(err)}\n`;
    this.stderr.add(Buffer.from(text));
    this.exit = { code: 1, signal: null };
  }

  end() {
    if (this.ended) return;
    if (!this.exit) {
      try {
        this.process.emit('beforeExit', this.exitCode ?? 0);
      } catch (err) {
        this.uncaught(err);
      }
      if (!this.exit && this.pending > 0) return; // beforeExit scheduled more work
    }
    let code = this.exit ? this.exit.code : (this.exitCode ?? 0);
    const signal = this.exit ? this.exit.signal : null;
    if (signal === null) {
      try {
        this.exit = null;
        this.process.emit('exit', code);
      } catch (err) {
        if (err !== STOP) this.uncaught(err);
      }
      if (this.exit && this.exit.code !== undefined && this.exit.code !== null) code = this.exit.code;
      code = Number(code) | 0;
    }
    this.ended = true;
    util.inspect.defaultOptions = INSPECT_DEFAULTS;
    for (const entry of this.timers) entry.clear(entry.handle);
    this.timers.clear();
    for (const fd of this.files) {
      try { fs.closeSync(fd); } catch { /* closed already */ }
    }
    this.files.clear();
    const cpu = process.cpuUsage(this.cpu);
    const out = this.stdout.bytes();
    const err = this.stderr.bytes();
    const header = {
      exit_code: signal === null ? code & 0xff : null,
      signal,
      cpu_us: cpu.user + cpu.system,
      stdout_size: Math.min(this.stdout.size, OUT_CAP),
      stdout_bytes: out.length,
      stderr_bytes: err.length,
    };
    writeAll(CONTROL, Buffer.concat([Buffer.from(`${JSON.stringify(header)}\n`), out, err]));
    current = null;
    setImmediate(next);
  }
}

process.on('unhandledRejection', (reason, promise) => {
  const test = current;
  if (!test || test.ended || test.exit) return;
  if (Object.getPrototypeOf(promise) !== test.realm.Promise.prototype) return; // not this test's
  if (reason === STOP) return;
  test.uncaught(reason);
  test.check();
});
process.on('uncaughtException', (err) => {
  if (current) { current.uncaught(err); current.check(); }
});

function next() {
  const input = readRequest();
  new Test(input).run();
}

writeAll(CONTROL, Buffer.from('{"ready": true}\n'));
next();
