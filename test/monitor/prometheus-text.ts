// A strict reader of the Prometheus text exposition format (version 0.0.4): every line a comment
// (# HELP, # TYPE), blank, or a sample `name{label="value",…} value [timestamp]`; every sample of a
// family declared by # TYPE before it; histograms with cumulative buckets, a +Inf bucket equal to
// _count, and _sum. Throws on the first line that breaks the format.

export interface Sample {
  name: string
  labels: Record<string, string>
  value: number
}

export interface Family {
  name: string
  type: 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped'
  help?: string
  samples: Sample[]
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/
const SUFFIXES: Record<Family['type'], string[]> = { counter: ['', '_total', '_created'], gauge: [''], histogram: ['_bucket', '_sum', '_count', '_created'], summary: ['', '_sum', '_count', '_created'], untyped: [''] }

export function parsePrometheusText(text: string): Map<string, Family> {
  const families = new Map<string, Family>()
  const lines = text.split('\n')
  lines.forEach((line, i) => {
    const where = `line ${i + 1}: ${JSON.stringify(line)}`
    if (line === '') return
    if (line.startsWith('#')) {
      const m = /^# (HELP|TYPE) (\S+) ?(.*)$/.exec(line)
      if (!m) return  // a free comment
      const [, kind, name, rest] = m as unknown as [string, string, string, string]
      if (!NAME.test(name)) throw new Error(`${where}: bad metric name`)
      const family = families.get(name) ?? { name, type: 'untyped' as const, samples: [] }
      if (kind === 'TYPE') {
        if (!(rest in SUFFIXES)) throw new Error(`${where}: unknown type ${rest}`)
        if (family.samples.length > 0) throw new Error(`${where}: TYPE after samples`)
        family.type = rest as Family['type']
      } else {
        family.help = rest
      }
      families.set(name, family)
      return
    }
    const sample = parseSample(line, where)
    const family = familyOf(sample.name, families)
    if (!family) throw new Error(`${where}: sample of no declared family`)
    family.samples.push(sample)
  })
  for (const f of families.values()) if (f.type === 'histogram') checkHistogram(f)
  return families
}

function parseSample(line: string, where: string): Sample {
  const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})? (\S+)( -?\d+)?$/.exec(line)
  if (!m) throw new Error(`${where}: not a sample line`)
  const labels: Record<string, string> = {}
  let rest = m[3] ?? ''
  while (rest.length > 0) {
    const l = /^([^=]+)="((?:[^"\\]|\\["\\n])*)"(,|$)/.exec(rest)
    if (!l || !LABEL_NAME.test(l[1]!)) throw new Error(`${where}: bad label in ${JSON.stringify(rest)}`)
    if (l[1]! in labels) throw new Error(`${where}: label ${l[1]} repeated`)
    labels[l[1]!] = l[2]!.replace(/\\n/g, '\n').replace(/\\(["\\])/g, '$1')
    rest = rest.slice(l[0].length)
  }
  const raw = m[4]!
  const value = raw === '+Inf' ? Infinity : raw === '-Inf' ? -Infinity : raw === 'NaN' ? NaN : Number(raw)
  if (Number.isNaN(value) && raw !== 'NaN') throw new Error(`${where}: value ${raw} is not a number`)
  return { name: m[1]!, labels, value }
}

function familyOf(sample: string, families: Map<string, Family>): Family | undefined {
  for (const f of families.values()) if (SUFFIXES[f.type].some((s) => f.name + s === sample)) return f
  return undefined
}

function checkHistogram(f: Family): void {
  const series = new Map<string, Sample[]>()
  for (const s of f.samples) {
    const { le: _le, ...rest } = s.labels
    const key = JSON.stringify(Object.entries(rest).sort())
    series.set(key, [...(series.get(key) ?? []), s])
  }
  for (const [key, samples] of series) {
    const buckets = samples.filter((s) => s.name === `${f.name}_bucket`)
    const count = samples.find((s) => s.name === `${f.name}_count`)
    if (!samples.some((s) => s.name === `${f.name}_sum`) || !count) throw new Error(`histogram ${f.name} ${key}: no _sum or _count`)
    const inf = buckets.find((b) => b.labels.le === '+Inf')
    if (!inf || inf.value !== count.value) throw new Error(`histogram ${f.name} ${key}: +Inf bucket is not _count`)
    for (let i = 1; i < buckets.length; i++) {
      if (Number(buckets[i]!.labels.le) < Number(buckets[i - 1]!.labels.le) || buckets[i]!.value < buckets[i - 1]!.value) throw new Error(`histogram ${f.name} ${key}: buckets not cumulative`)
    }
  }
}
