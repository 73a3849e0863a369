// The history page (page.ts) and `history`'s answers (main.ts) in each language of --lang
// (PIX_LANG): the monitor's page in its certifications' language, `history --lang pt-BR`.
// Verdict words, alert kinds and summaries come from cli/reporting/i18n.ts and alerts-i18n.ts.
import { texts, type Pair } from '../reporting/i18n-tables.ts'
import { currentLang, labelIn } from '../reporting/i18n.ts'
import type { RunRow } from './history.ts'

export const HISTORY_TEXTS = {
  'page.title': ['Conformance history', 'Histórico de conformidade'],
  'page.titleRuns': ['Conformance history ({n} runs, last {verdict})', 'Histórico de conformidade ({n} execuções, última {verdict})'],
  'page.meta': ['{n} runs', '{n} execuções'],
  'page.metaSpan': [', from {from} to {to}; last run: ', ', de {from} a {to}; última execução: '],
  'page.generated': ['Generated {at}.', 'Gerado em {at}.'],
  'page.verified': ['Verified clauses', 'Cláusulas verificadas'],
  'page.failures': ['Failed clauses by severity', 'Cláusulas reprovadas por gravidade'],
  'page.latency': ['Latency per operation (p95, and p50 lighter; ms)', 'Latência por operação (p95, e p50 mais claro; ms)'],
  'page.noLatency': ['No latency recorded yet.', 'Nenhuma latência registrada ainda.'],
  'page.changes': ['Changes', 'Mudanças'],
  'page.runs': ['Runs', 'Execuções'],
  'page.noChange': ['No change seen yet.', 'Nenhuma mudança vista ainda.'],
  'page.noRun': ['No run yet.', 'Nenhuma execução ainda.'],
  'series.verified': ['verified', 'verificadas'],
  'series.testable': ['testable must', 'obrigatórias testáveis'],
  'point.verified': ['run {seq}: {verified} of {testable} verified', 'execução {seq}: {verified} de {testable} verificadas'],
  'point.testable': ['run {seq}: {testable} testable must clauses in scope', 'execução {seq}: {testable} cláusulas obrigatórias testáveis no escopo'],
  'point.failed': ['run {seq}: {n} failed ({severity})', 'execução {seq}: {n} reprovadas ({severity})'],
  'point.p50': ['run {seq}: p50 {ms} ms', 'execução {seq}: p50 {ms} ms'],
  'point.p95': ['run {seq}: p95 {ms} ms ({n} answers)', 'execução {seq}: p95 {ms} ms ({n} respostas)'],
  'changes.when': ['When', 'Quando'],
  'changes.change': ['Change', 'Mudança'],
  'changes.subject': ['Clause or operation', 'Cláusula ou operação'],
  'changes.what': ['What', 'O quê'],
  'changes.seenBy': ['Seen by', 'Vista por'],
  'changes.broke': ['broke {message}', 'quebrou {message}'],
  'changes.trace': ['trace id {id}', 'id de rastreio {id}'],
  'changes.run': ['run {seq}', 'execução {seq}'],
  'runs.started': ['Started', 'Início'],
  'runs.result': ['Result', 'Resultado'],
  'runs.verified': ['Verified', 'Verificadas'],
  'runs.failed': ['Failed checks', 'Verificações reprovadas'],
  'runs.report': ['Report', 'Relatório'],
  'runs.running': ['running', 'em execução'],
  'outcome.passed': ['passed', 'aprovada'],
  'outcome.failed': ['failed', 'reprovada'],
  'outcome.unusable': ['unusable', 'inutilizável'],
  'outcome.timed-out': ['timed-out', 'tempo esgotado'],
  'outcome.aborted': ['aborted', 'interrompida'],
  'outcome.error': ['error', 'erro'],

  // `history`'s answers in the terminal
  'cli.written': ['history: page written to {file}', 'history: página escrita em {file}'],
  'cli.noHistory': ['history: no history at {file} (a monitor writes it; --db names another)', 'history: nenhum histórico em {file} (um monitor o escreve; --db indica outro)'],
  'cli.noVerdict': ['{clause}: no run of the history has a verdict on it', '{clause}: nenhuma execução do histórico tem veredito sobre ela'],
  'cli.lastChanged': ['last changed: {at}, run {run} ({status})', 'última mudança: {at}, execução {run} ({status})'],
  'cli.unchanged': ['unchanged since the first run of the history ({status})', 'sem mudança desde a primeira execução do histórico ({status})'],
  'cli.confirm': ['confirm  ', 'confirma '],
  'cli.scheduled': ['scheduled', 'agendada '],
  'cli.traceId': ['(trace id {id})', '(id de rastreio {id})'],
  'cli.alert': ['alert {at} {kind}: {summary}', 'alerta {at} {kind}: {summary}'],
  'cli.broke': ['broke {message}', 'quebrou {message}'],
  'cli.check': [' (check {check})', ' (verificação {check})'],
  'cli.noLatency': ['no latency recorded in that time', 'nenhuma latência registrada nesse período'],
  'cli.operation': ['operation', 'operação'],
  'cli.answers': ['answers', 'respostas'],
  'cli.lastRuns': ['last {n} runs:', 'últimas {n} execuções:'],
  'cli.lastChanges': ['last {n} changes:', 'últimas {n} mudanças:'],
  'cli.verified': ['verified', 'verificadas'],
  'cli.severityUnknown': ['unknown', 'desconhecida'],
  'cli.kind.scheduled': ['scheduled', 'agendada'],
  'cli.kind.confirm': ['confirm', 'confirma'],
} as const satisfies Record<string, Pair>

export const historyText = texts(HISTORY_TEXTS)

/** A run's result in words: its verdict's label (`REPROVADO (critério)`), else its outcome, else running. */
export function runResult(r: Pick<RunRow, 'verdict' | 'outcome'>): string {
  if (r.verdict) return labelIn(currentLang(), r.verdict)
  if (r.outcome) return historyText(`outcome.${r.outcome}`)
  return historyText('runs.running')
}
