// A certification's vitest workers are processes (vitest.config.ts): a worker whose CLI is gone
// (Ctrl-C, a kill, a crash) ends at once, instead of finishing its checks against a target no one
// reports on and leaving its capture server open. A vitest setup file, run before each suite file
// of a worker: the listener is added by the first.
if (process.send && process.listenerCount('disconnect') === 0) process.once('disconnect', () => process.exit(130))
