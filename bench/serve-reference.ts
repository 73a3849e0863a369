// The reference alone in a process of its own, profiled while under load: prints its base URL and
// env as one JSON line, starts the V8 CPU profiler (what node --cpu-prof uses, but after start-up,
// so module loading stays out of the figures), serves until stdin ends, then writes the profile to
// the path given as first argument and exits.
import { writeFileSync } from 'node:fs'
import { Session } from 'node:inspector/promises'
import { startReference } from '../reference/index.ts'

const out = process.argv[2]
if (!out) throw new Error('usage: serve-reference.ts <profile.cpuprofile>')
const ref = await startReference({ quiet: true })
const session = new Session()
session.connect()
await session.post('Profiler.enable')
await session.post('Profiler.start')
process.stdout.write(`${JSON.stringify({ baseUrl: ref.baseUrl, env: ref.env })}\n`)
process.stdin.resume()
process.stdin.on('end', () => {
  void (async () => {
    const { profile } = await session.post('Profiler.stop')
    writeFileSync(out, JSON.stringify(profile))
    await ref.close()
    process.exit(0)
  })()
})
