// `pix-conformance observe --help` in Portuguese (pt-BR); test/unit/cli/pt-br-consoles.test.ts
// holds it to the flags of the English text (options.ts OBSERVE_USAGE).
import type { Lang } from '../reporting/i18n.ts'

const OBSERVE_USAGE_PT = `Uso: pix-conformance observe --har FILE [--env FILE] [--report-dir DIR]
     pix-conformance observe --env FILE --listen [HOST:]PORT[,PORT2[,PORT3]] [--relay-webhooks URL] [--report-dir DIR]
                               [--verify-reads [--max-rps N]]
                               [--db FILE [--window DURATION] [--alert-url URL] [--page FILE]]

Julga o tráfego da própria aplicação com o provedor contra as cláusulas (docs/OBSERVE.md).

  --har FILE          julga uma gravação HAR 1.2 offline (navegador, Playwright, mitmproxy, ou o --har do kit)
  --env FILE          as configurações do alvo (PIX_BASE_URL, PIX_GATEWAY_URL, credenciais, PIX_TLS_CA_FILE,
                      PIX_CERT_FILE com PIX_CERT_MODE=transport): para onde encaminhar, e o que ocultar
  --listen ADDR       encaminha e julga ao vivo: a API base na PORT, a API do gateway na PORT2 (uma porta
                      serve as duas, roteadas pelo caminho); host 127.0.0.1 se não informado. SIGTERM ou
                      SIGINT escreve o relatório e sai
  --relay-webhooks URL  com uma terceira porta em --listen: as notificações que o provedor envia ali são
                      encaminhadas sem alteração para URL (o seu receptor), e julgadas (§6)
  --verify-reads      com --listen: o proxy pode acrescentar consultas próprias somente de leitura (a
                      visão individual de uma transação que a aplicação listou), só GET, com o token da
                      conta de --env (de POST /oauth/token), para julgar a concordância entre superfícies
  --max-rps N         o limite dessas consultas por segundo (padrão 2, no máximo 50)
  --report-dir DIR    onde fica a pasta da execução (padrão reports/)
  --db FILE           registra também os vereditos no histórico do monitor (uma execução por janela): o
                      comando history e a página os mostram, e uma cláusula que muda dispara os alertas do monitor
  --window DURATION   com --listen e --db: encerra uma janela a cada DURATION (30s, 15m, 1h); padrão:
                      uma janela, encerrada por SIGTERM
  --alert-url URL     com --db: envia cada alerta ali por POST (o corpo do webhook do monitor)
  --page FILE         com --db: a página do histórico, reescrita após cada janela (padrão ao lado de --db)
  --lang LANG         en ou pt-BR: o idioma do console (padrão PIX_LANG, senão en)
  -h, --help          este texto

Códigos de saída: 0 nenhuma cláusula observada reprovada, 1 uma cláusula reprovada (ou nada foi
julgado), 2 opções inutilizáveis.`

/** Observe's --help in `lang`; `english` as it is for English. */
export function observeUsageIn(lang: Lang, english: string): string {
  return lang === 'pt-BR' ? OBSERVE_USAGE_PT : english
}
