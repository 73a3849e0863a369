// `check-driver`'s report (harness/driver-check.ts formatDriverReport) in Portuguese (pt-BR): the
// same layout, each route's verdict word and detail translated; routes, statuses and the driver's
// own messages stay as they are.
import type { DriverReport } from '../harness/driver-check.ts'
import { byPattern, type Replacement } from './reporting/i18n-tables.ts'
import type { Lang } from './reporting/i18n.ts'

const VERDICTS_PT: Record<string, string> = { provided: 'oferecida', refused: 'recusada', wrong: 'errada', unchecked: 'não conferida' }

const DETAILS_PT: readonly (readonly [RegExp, Replacement])[] = [
  [/^no usable answer: (.+)$/, 'nenhuma resposta utilizável: $1'],
  [/^(\d+)(.*) to a valid request$/, '$1$2 a uma requisição válida'],
  [/^(\d+) is not an answer specs\/control\.yaml gives \((.*)\)$/, '$1 não é uma resposta que specs/control.yaml dá ($2)'],
  [/^(\d+) without a JSON body(?:: (.+)| \(empty\))?$/, (whole: string, status: string, why?: string) => `${status} sem corpo JSON${why ? `: ${why}` : whole.endsWith('(empty)') ? ' (vazio)' : ''}`],
  [/^(\d+), body does not match specs\/control\.yaml: (.*)$/, '$1, o corpo não corresponde a specs/control.yaml: $2'],
  [/^(\d+), body matches$/, '$1, o corpo corresponde'],
  [/^not called$/, 'não chamada'],
  [/^needs an incoming payment: POST \/control\/incoming-payments did not work$/, 'exige um pagamento recebido: POST /control/incoming-payments não funcionou'],
  [/^needs a registered slip: POST \/control\/bank-slips\/\{id\}\/register did not work$/, 'exige um boleto registrado: POST /control/bank-slips/{id}/register não funcionou'],
  [/^needs a settled cash-out: POST \/control\/transactions\/\{transactionId\}\/settle did not work$/, 'exige um cash-out liquidado: POST /control/transactions/{transactionId}/settle não funcionou'],
  [/^registering the slip to expire answered (\d+)$/, 'registrar o boleto para vencer respondeu $1'],
  [/^(.+) failed \((.*)\)$/, '$1 falhou ($2)'],
  [/^(.+) did not work$/, '$1 não funcionou'],
]

const detailIn = byPattern(DETAILS_PT)

/** The report in Portuguese, laid out as formatDriverReport lays out the English one. */
export function driverReportPt(report: DriverReport, lang: Lang): string {
  const width = Math.max(...report.routes.map((r) => r.route.length))
  const word = Math.max(...Object.values(VERDICTS_PT).map((w) => w.length)) + 1
  const lines = report.routes.map((r) => `${(VERDICTS_PT[r.verdict] ?? r.verdict).padEnd(word)} ${r.route.padEnd(width)}  ${detailIn(r.detail, lang)}${r.extra ? ' (extra da referência: opcional)' : r.optional ? ' (opcional)' : ''}`)
  const counts = (['provided', 'refused', 'wrong', 'unchecked'] as const).map((v) => `${report.routes.filter((r) => r.verdict === v).length} ${VERDICTS_PT[v]}${report.routes.filter((r) => r.verdict === v).length === 1 ? '' : 's'}`)
  return [...lines, '', counts.join(', ')].join('\n')
}
