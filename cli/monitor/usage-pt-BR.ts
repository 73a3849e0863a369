// `monitor --help` and `history --help` in Portuguese (pt-BR); test/unit/cli/pt-br-consoles.test.ts
// holds each to the flags of its English text (options.ts MONITOR_USAGE, HISTORY_USAGE).
import type { Lang } from '../reporting/i18n.ts'

const MONITOR_USAGE_PT = `Uso: pix-conformance monitor [flags do monitor] [flags da certificação]

Certifica o alvo repetidamente, guarda o histórico em SQLite e alerta a cada mudança.

  --every DURATION       do início de uma execução ao início da próxima (padrão 15m; 30s, 15m, 1h…);
                         as execuções nunca se sobrepõem: uma execução mais longa atrasa a próxima
  --run-timeout DURATION uma execução ainda em andamento depois disso é interrompida (padrão: --every, no mínimo 10m)
  --keep DURATION        por quanto tempo o histórico é mantido (padrão 30d); execuções mais antigas e as
                         suas pastas de relatório são apagadas
  --alert-url URL        envia cada alerta ali por POST, como JSON (eles são impressos de qualquer forma)
  --metrics-port [HOST:]PORT  métricas Prometheus em /metrics (host padrão 127.0.0.1)
  --db FILE              o banco do histórico (padrão <report-dir>/history.db)
  --page FILE            a página do histórico, reescrita após cada execução (padrão <report-dir>/history.html)
  --confirm retry|next-run  como uma cláusula que passou a reprovar é confirmada antes de um alerta: uma nova
                         execução imediata da verificação que reprovou (padrão), ou a próxima execução agendada
  --runs N               para depois de N execuções
  --quiet                uma linha por execução (veredito, manchete, mudanças): para o log de um serviço;
                         a saída de cada execução fica na sua pasta de relatório
Toda outra flag vai para cada certificação (--env, --profile, --yes-mutate, --area, --check,
--report-dir, --lang…). O perfil é readonly, a menos que --profile ou PIX_PROFILE digam outra coisa.
SIGTERM ou SIGINT interrompe a execução em andamento, fecha o banco e sai com 0.`

const HISTORY_USAGE_PT = `Uso: pix-conformance history [--db FILE | --report-dir DIR] [--clause ID] [--latency [--since 24h]] [--html FILE] [--json]

Responde a partir do histórico de um monitor (padrão reports/history.db):
  (nenhuma flag)   as últimas execuções e as últimas mudanças
  --clause ID      a linha do tempo da cláusula, e quando ela mudou pela última vez
  --latency        percentis de latência (p50, p90, p95, p99) por operação; --since limita as execuções
  --html FILE      escreve a página do histórico (um único arquivo HTML independente)
  --json           as mesmas respostas em JSON
  --limit N        quantas execuções ou mudanças listar (padrão 20)
  --lang LANG      en ou pt-BR: o idioma das respostas e da página (padrão PIX_LANG, senão en)`

/** The monitor's or history's --help in `lang`; `english` as it is for English. */
export function monitorUsageIn(lang: Lang, name: 'monitor' | 'history', english: string): string {
  if (lang !== 'pt-BR') return english
  return name === 'monitor' ? MONITOR_USAGE_PT : HISTORY_USAGE_PT
}
