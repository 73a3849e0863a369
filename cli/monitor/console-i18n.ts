// What the monitor prints as it goes (loop.ts), in its certifications' language (--lang among
// their flags, else PIX_LANG; alerts-i18n.ts alertLang). The alerts themselves are alerts.ts's.
import { texts, type Pair } from '../reporting/i18n-tables.ts'

export const MONITOR_TEXTS = {
  'stopping': ['monitor: {why}: stopping{current}', 'monitor: {why}: parando{current}'],
  'stopping.current': [' the run in progress', ' a execução em andamento'],
  'stopRequested': ['stop requested', 'parada pedida'],
  'signal': ['{signal} received', '{signal} recebido'],
  'metrics': ['monitor: metrics at {url}', 'monitor: métricas em {url}'],
  'plan': ['monitor: a run every {every}, each stopped after {timeout}; history {db} (kept {keep}); page {page}', 'monitor: uma execução a cada {every}, cada uma interrompida após {timeout}; histórico {db} (mantido por {keep}); página {page}'],
  'firstUnusable': ['monitor: the first run could not certify the target (exit 2, above): fix the config or the target and start again', 'monitor: a primeira execução não conseguiu certificar o alvo (saída 2, acima): corrija a configuração ou o alvo e comece de novo'],
  'stopped': ['monitor: stopped; history closed', 'monitor: parado; histórico fechado'],
  'started': ['monitor: run {seq} started', 'monitor: execução {seq} iniciada'],
  'ended': ['monitor: run {seq} {how}', 'monitor: execução {seq} {how}'],
  'runLine': ['monitor: run {seq} ({run}) {result} in {duration}: {headline}', 'monitor: execução {seq} ({run}) {result} em {duration}: {headline}'],
  'baseline': ['monitor: run {seq} is the baseline: {failing} clauses failing, {verified} verified; changes from here on are alerted', 'monitor: a execução {seq} é a referência: {failing} cláusulas reprovando, {verified} verificadas; as mudanças a partir daqui são alertadas'],
  'noChange': [' · no change', ' · nenhuma mudança'],
  'confirmNext': ['monitor: {clauses} failed after passing; the next run confirms it before an alert', 'monitor: {clauses} reprovou depois de aprovar; a próxima execução confirma antes de um alerta'],
  'confirmNow': ['monitor: {clauses} failed after passing; re-running {checks} to confirm', 'monitor: {clauses} reprovou depois de aprovar; executando {checks} de novo para confirmar'],
  'cleared': ['monitor: {clause} passed on the re-run: not confirmed, no alert', 'monitor: {clause} aprovada na nova execução: não confirmada, sem alerta'],
  'alerts': ['ALERTS of run {seq}: {n} changes', 'ALERTAS da execução {seq}: {n} mudanças'],
  'notice': ['NOTICE {summary}', 'AVISO {summary}'],
  'notSent': ['monitor: the alert could not be sent to {url}: {detail}', 'monitor: o alerta não pôde ser enviado a {url}: {detail}'],
  'noResults': ['monitor: the run\'s results.json could not be read ({why})', 'monitor: o results.json da execução não pôde ser lido ({why})'],
  'noPage': ['monitor: the history page could not be written ({why})', 'monitor: a página do histórico não pôde ser escrita ({why})'],
  'pruned': ['monitor: deleted {n} runs older than {keep}', 'monitor: {n} execuções mais antigas que {keep} apagadas'],
  'end.timedOut': ['was stopped after {duration}: over the time allowed a run (--run-timeout)', 'foi interrompida após {duration}: passou do tempo permitido a uma execução (--run-timeout)'],
  'end.aborted': ['was stopped: the monitor is stopping', 'foi interrompida: o monitor está parando'],
  'end.noReport': ['ended without a report (exit {code})', 'terminou sem relatório (saída {code})'],
  'end.unusable': ['could not certify the target (exit 2)', 'não conseguiu certificar o alvo (saída 2)'],
} as const satisfies Record<string, Pair>

export const monitorText = texts(MONITOR_TEXTS)
