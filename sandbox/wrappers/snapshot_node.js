// Start-up snapshot entry for Node. The image build runs
//   node --max-old-space-size=MB --snapshot-blob BLOB --build-snapshot snapshot_node.js
// (`runner.py --build-node-snapshots`), and each test then starts with
//   node --max-old-space-size=MB --snapshot-blob BLOB SCRIPT ARGS...
// which deserialises node's bootstrapped state instead of re-running its bootstrap (Debian's
// node 18 is built without node's own snapshot): ~40 ms instead of ~70 ms per test.
//
// The deserialise-main function below runs SCRIPT as `node SCRIPT ARGS...` would: node has
// already done what run_main_module.js does before user code (prepareMainThreadExecution,
// which re-initialises the CommonJS loader, console, process object), so this does the rest
// of it: argv[1] made absolute, RegExp statics reset, then node's own Module.runMain, so
// SCRIPT is the main module (require.main === module, module.id === '.') and uncaught
// exceptions, unhandled rejections and process.exit / exitCode go through node's own paths.
//
// Nothing else is pre-loaded: fs is part of node's bootstrap anyway, and pre-loading
// readline (not on node 18's list of snapshot-tested builtins) measured no gain.
'use strict';
const { startupSnapshot } = require('v8');
const path = require('path');
// `module` is not on node 18's list of snapshot-tested builtins either (one warning at build
// time), but only its object is kept here: the loader's state is reset after deserialisation
// (initializeCJS: search paths from the runtime HOME / NODE_PATH, Module.runMain itself).
const Module = require('module');

startupSnapshot.setDeserializeMainFunction(() => {
  const main = process.argv[1];
  if (!main || main.startsWith('-')) {
    process._rawDebug('usage: node --snapshot-blob BLOB SCRIPT [ARGS...]');
    process.exit(9); // node's own status for bad arguments
  }
  process.argv[1] = path.resolve(main);
  /^/.exec(''); // as run_main_module.js: no RegExp.$1 / lastMatch from start-up reaches user code
  Module.runMain();
});
