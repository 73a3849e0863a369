// (d) and (e) of the bench: where the time goes. The reference is profiled under GET /api/balance
// load in a process of its own (serve-reference.ts); the kit's pipeline in this process. Both use
// the V8 CPU profiler (as node --cpu-prof), started after start-up; the answer is the functions
// with the most self time.
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { Session } from 'node:inspector/promises'
import { tmpdir } from 'node:os'
import { join, relative, resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { loadReference, measure } from './load.ts'

const REPO_ROOT = resolve(import.meta.dirname, '..')
const TOP = 15

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }[]
  samples: number[]
  timeDeltas: number[]
}

export async function profileReference(requests: number): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'pix-bench-prof-'))
  try {
    const file = join(dir, 'reference.cpuprofile')
    const child = spawn(process.execPath, ['--import', 'tsx', join(REPO_ROOT, 'bench', 'serve-reference.ts'), file], {
      cwd: REPO_ROOT,
      stdio: ['pipe', 'pipe', 'inherit'],
    })
    const first = await new Promise<string>((done, fail) => {
      createInterface({ input: child.stdout! }).once('line', done)
      child.once('exit', (code) => fail(new Error(`the profiled reference exited early (${code})`)))
    })
    const ref = JSON.parse(first) as { baseUrl: string; env: Record<string, string> }
    const load = await loadReference(ref)
    await measure(requests, load.once)
    await load.close()
    const exited = new Promise((done) => child.once('exit', done))
    child.stdin!.end()
    await exited
    if (!existsSync(file)) return ['(no profile was written)']
    return topSelfTime(JSON.parse(readFileSync(file, 'utf8')) as CpuProfile)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** Profiles `fn` in this process. */
export async function profileHere(fn: () => Promise<void>): Promise<string[]> {
  const session = new Session()
  session.connect()
  await session.post('Profiler.enable')
  await session.post('Profiler.start')
  let profile: unknown
  try {
    await fn()
  } finally {
    profile = (await session.post('Profiler.stop')).profile
    session.disconnect()
  }
  return topSelfTime(profile as CpuProfile)
}

/** Self time per function (summed over its nodes), the largest first, as share of busy time. */
export function topSelfTime(p: CpuProfile): string[] {
  const frameOf = new Map(p.nodes.map((n) => [n.id, n.callFrame]))
  const selfUs = new Map<string, number>()
  let busy = 0
  let idle = 0
  p.samples.forEach((id, i) => {
    const frame = frameOf.get(id)
    const dt = p.timeDeltas[i] ?? 0
    if (!frame || frame.functionName === '(idle)') {
      idle += dt
      return
    }
    busy += dt
    const key = `${frame.functionName || '(anonymous)'}  ${where(frame.url, frame.lineNumber)}`
    selfUs.set(key, (selfUs.get(key) ?? 0) + dt)
  })
  const rows = [...selfUs.entries()].sort((a, b) => b[1] - a[1]).slice(0, TOP)
  const owners = [...timeByOwner(p).entries()].sort((a, b) => b[1] - a[1]).slice(0, TOP)
  const pct = (us: number) => `${((100 * us) / busy).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(0).padStart(6)} ms`
  return [
    `busy ${(busy / 1000).toFixed(0)} ms, idle ${(idle / 1000).toFixed(0)} ms; by function (self time):`,
    ...rows.map(([k, us]) => `${pct(us)}  ${k}`),
    'by owner (a sample goes to the nearest caller that is a file of this repository or a package; node internals and native code count for whoever called them; bench/ itself left out):',
    ...owners.map(([k, us]) => `${pct(us)}  ${k}`),
  ]
}

function timeByOwner(p: CpuProfile): Map<string, number> {
  const parent = new Map<number, number>()
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id)
  const byId = new Map(p.nodes.map((n) => [n.id, n]))
  const ownerOf = new Map<number, string>()
  const owner = (id: number): string => {
    const known = ownerOf.get(id)
    if (known !== undefined) return known
    const frame = byId.get(id)?.callFrame
    const mine = frame ? ownerOfUrl(frame.url) : undefined
    const up = parent.get(id)
    const result = mine ?? (up === undefined ? `(${frame?.functionName || 'root'})` : owner(up))
    ownerOf.set(id, result)
    return result
  }
  const out = new Map<string, number>()
  p.samples.forEach((id, i) => {
    if (byId.get(id)?.callFrame.functionName === '(idle)') return
    const o = owner(id)
    if (o.startsWith('bench/')) return // the profiler's own session and the load loop
    out.set(o, (out.get(o) ?? 0) + (p.timeDeltas[i] ?? 0))
  })
  return out
}

function ownerOfUrl(url: string): string | undefined {
  if (!url.startsWith('file://')) return undefined
  const path = relative(REPO_ROOT, new URL(url).pathname)
  const pkg = /^node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path)
  return pkg ? `package ${pkg[1]}` : path
}

function where(url: string, line: number): string {
  if (!url) return ''
  const path = url.startsWith('file://') ? relative(REPO_ROOT, new URL(url).pathname) : url
  return `${path}:${line + 1}`
}
