// The memory of a process tree while it runs (Linux /proc): each process's peak resident set
// (VmHWM, which the kernel keeps, so a sample taken late still sees an earlier peak) and the
// tree's summed resident set at its highest sample. A process gone between two samples keeps
// the peak last read. Elsewhere than Linux the figures are absent, not zero. Summed resident sets
// count the pages processes share (node's own code, ~40 MB in each) once per process; the tree's
// proportional set (PSS, each shared page split among its sharers) counts them once.
import { readFileSync, readdirSync } from 'node:fs'

export interface TreeMemory {
  /** Peak resident set (MB) per process seen, by pid, with its command name. */
  peaks: Map<number, { name: string; mb: number }>
  /** The highest sum of the tree's resident sets (MB) over the samples. */
  treeMb: number
  /** The highest sum of the tree's proportional sets (MB), or undefined without smaps_rollup. */
  treePssMb?: number
}

export interface MemoryWatch {
  stop(): TreeMemory | undefined
}

/** Samples the tree under `pid` every `everyMs` until stop(). */
export function watchTree(pid: number, everyMs = 100): MemoryWatch {
  const peaks = new Map<number, { name: string; mb: number }>()
  let treeMb = 0
  let treePssMb: number | undefined
  let supported = true
  const sample = (): void => {
    let sum = 0
    let pss: number | undefined = 0
    for (const p of treeOf(pid)) {
      const status = statusOf(p)
      if (!status) continue
      sum += status.rssMb
      const own = pssMbOf(p)
      pss = own === undefined || pss === undefined ? undefined : pss + own
      const seen = peaks.get(p)
      if (!seen || status.hwmMb > seen.mb) peaks.set(p, { name: status.name, mb: status.hwmMb })
    }
    treeMb = Math.max(treeMb, sum)
    if (pss !== undefined) treePssMb = Math.max(treePssMb ?? 0, pss)
  }
  try {
    readFileSync(`/proc/${pid}/status`, 'utf8')
  } catch {
    supported = false
  }
  const timer = supported ? setInterval(sample, everyMs) : undefined
  if (supported) sample()
  return {
    stop() {
      if (timer) clearInterval(timer)
      return supported ? { peaks, treeMb, ...(treePssMb === undefined ? {} : { treePssMb }) } : undefined
    },
  }
}

/** The tree's peak: its summed resident sets, and its proportional sets when known. */
export function treeText(m: TreeMemory): string {
  return `tree ${m.treeMb.toFixed(0)} MB${m.treePssMb === undefined ? '' : ` (${m.treePssMb.toFixed(0)} MB proportional)`}`
}

/** The largest process's peak, in MB. */
export function largestMb(m: TreeMemory): number {
  return Math.max(0, ...[...m.peaks.values()].map((p) => p.mb))
}

export function memoryText(m: TreeMemory | undefined): string {
  if (!m) return 'memory: not measured (no /proc)'
  const rows = [...m.peaks.entries()].sort((a, b) => b[1].mb - a[1].mb).map(([pid, p]) => `${p.name} ${pid} ${p.mb.toFixed(0)} MB`)
  return `memory: largest process ${largestMb(m).toFixed(0)} MB, ${treeText(m)} (per process: ${rows.join(', ')})`
}

function treeOf(root: number): number[] {
  const out: number[] = []
  const todo = [root]
  while (todo.length > 0) {
    const pid = todo.pop() as number
    out.push(pid)
    let tasks: string[] = []
    try {
      tasks = readdirSync(`/proc/${pid}/task`)
    } catch {
      continue
    }
    for (const tid of tasks) {
      try {
        for (const child of readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').split(' ')) if (child.trim() !== '') todo.push(Number(child))
      } catch {
        // gone meanwhile
      }
    }
  }
  return out
}

function statusOf(pid: number): { name: string; rssMb: number; hwmMb: number } | undefined {
  let text: string
  try {
    text = readFileSync(`/proc/${pid}/status`, 'utf8')
  } catch {
    return undefined
  }
  const kb = (field: string): number => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? 0)
  return { name: /^Name:\s+(.*)$/m.exec(text)?.[1] ?? '?', rssMb: kb('VmRSS') / 1024, hwmMb: kb('VmHWM') / 1024 }
}

/** A process's proportional set size (MB): its private pages and its share of the shared ones. */
function pssMbOf(pid: number): number | undefined {
  try {
    const kb = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1]
    return kb === undefined ? undefined : Number(kb) / 1024
  } catch {
    return undefined
  }
}
