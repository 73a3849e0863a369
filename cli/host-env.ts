// A host process's environment, kept: vitest, started in-process by a certification, sets
// NODE_ENV, TEST, VITEST, MODE, DEV, PROD, BASE_URL (and may set more in a later version) in
// process.env and leaves them there. The programmatic API puts every variable back as it was.

/** Snapshots process.env; the function returned restores it: added variables removed, changed ones put back. */
export function keepProcessEnv(): () => void {
  const before = { ...process.env }
  return () => {
    for (const name of Object.keys(process.env)) if (!(name in before)) delete process.env[name]
    for (const [name, value] of Object.entries(before)) if (process.env[name] !== value) process.env[name] = value
  }
}
