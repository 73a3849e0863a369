// The monitor's alert texts in the run's language (--lang, PIX_LANG; cli/reporting/i18n.ts). cli/monitor/changes.ts
// words each change once, in English; its summary is translated here by pattern, and a summary of
// a shape not listed keeps its English words. What checks wrote is translated by cli/reporting/messages.ts.
import { langOf, tr, type Lang } from '../reporting/i18n.ts'
import { certifyFlag } from './options.ts'

const SUMMARIES_PT: readonly [RegExp, string][] = [
  [/^(\S+) failed \(passed before; confirmed by a second run\)$/, '$1 reprovada (aprovada antes; confirmado por uma segunda execução)'],
  [/^(\S+) failed \(passed before; confirmed by an immediate re-run of its check\)$/, '$1 reprovada (aprovada antes; confirmado por uma nova execução imediata da sua verificação)'],
  [/^(\S+) passes again \(failed since an earlier run\)$/, '$1 volta a ser aprovada (reprovada desde uma execução anterior)'],
  [/^(\S+) still fails, for another cause$/, '$1 continua reprovada, por outra causa'],
  [/^(\S+): the target's (\S+) changed from (.+) to (.+)$/, '$1: $2 do alvo mudou de $3 para $4'],
  [/^(.+): p95 latency (\S+) ms, (\S+) times the recent (\S+) ms$/, '$1: latência p95 de $2 ms, $3 vezes os $4 ms recentes'],
]

/** A change's summary in `lang`. */
export function summaryIn(lang: Lang, summary: string): string {
  if (lang === 'en') return summary
  for (const [pattern, pt] of SUMMARIES_PT) if (pattern.test(summary)) return summary.replace(pattern, pt)
  return summary
}

/** A change's kind as the alert line names it. */
export function kindIn(lang: Lang, kind: string): string {
  if (lang === 'en') return kind
  const id = `alert.kind.${kind}`
  return id === 'alert.kind.clause-failed' || id === 'alert.kind.clause-recovered' || id === 'alert.kind.latency-doubled' ? tr(lang, id) : kind
}

/** The alerts' language: the certification's --lang (the monitor passes it on), else PIX_LANG. */
export function alertLang(certifyArgv: readonly string[]): Lang {
  return langOf(certifyFlag(certifyArgv, '--lang') ?? process.env.PIX_LANG)
}
