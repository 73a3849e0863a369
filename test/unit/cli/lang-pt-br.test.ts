// --lang pt-BR: a pt-BR run's report.html, console summary, certificate and monitor alert carry no
// English sentence of the kit's own (every fixed string of cli/reporting/i18n.ts's table is looked for) and
// the clause statements of specs/clauses.pt-BR.yaml; English stays the default. What checks write
// (expected/got) is translated in the report too (test/unit/cli/messages-pt-br.test.ts); the console
// and the monitor's alerts keep it in English and say so in Portuguese.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { loadClauses, loadTranslation } from '../../../generators/clauses.ts'
import { MESSAGES, headlineIn, inLang, type MessageId } from '../../../cli/reporting/i18n.ts'
import { renderHtml } from '../../../cli/reporting/html.ts'
import { makeCertificate, verifyCertificate, verifyText } from '../../../cli/reporting/certificate.ts'
import { paint, summaryText } from '../../../cli/reporting/progress.ts'
import { buildResults } from '../../../cli/reporting/results.ts'
import { alertBody, alertLine } from '../../../cli/monitor/alerts.ts'
import { REPO_ROOT, check, runInfo } from './fixtures.ts'

const CATALOGUE = loadClauses()
const PT = loadTranslation('pt-BR')
const dir = mkdtempSync(join(tmpdir(), 'pix-lang-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

// Titles in Portuguese, so that what is found in English can only be the kit's.
const EXCHANGE = {
  request: { method: 'PUT', url: 'http://127.0.0.1:4000/cob/abc', headers: { 'content-type': 'application/json', traceparent: `00-${'a'.repeat(32)}-${'b'.repeat(16)}-01` }, body: '{}' },
  response: { status: 201, headers: {}, body: '{}', durationMs: 4 },
}
const results = buildResults(runInfo({ gateSettings: { requireVerified: 90 } }), [
  check({ id: 'a', title: 'emissão de token', clauses: ['4.2.token-type-bearer'] }),
  check({
    id: 'b', title: 'tamanho do txid', area: 'charges', clauses: ['4.10.txid-length'], status: 'failed', failedClause: '4.10.txid-length', severity: 'data',
    message: '4.10.txid-length — status: expected 400, got 201', exchanges: [EXCHANGE], seed: 7, replayCommand: 'pix-conformance --check x', exchangesOmitted: 2,
    moreErrors: ['4.10.txid-length — segundo erro'],
  }),
  check({ id: 'c', title: 'pagamento da cobrança', area: 'charges', clauses: ['3.2.pay-ativa-concluida'], status: 'skipped', skipReason: 'readonly profile: sem PIX_CONTROL_URL' }),
  check({ id: 'd', title: 'saldo bloqueado', area: 'balance', clauses: ['2.3.blocked-equals-blocked'], status: 'blocked', reason: 'pré-condição' }),
  check({ id: 'e', title: 'rota inexistente', area: 'balance', clauses: ['2.3.bcb-blocked'], status: 'inconclusive', reason: 'sem evidência' }),
], CATALOGUE, ['erro fora de verificação'])

/** Each literal piece (between {vars}, HTML tags) of an English message that differs from its Portuguese one. */
function englishPieces(ids: MessageId[]): string[] {
  const pieces = new Set<string>()
  for (const id of ids) {
    const [en, pt] = MESSAGES[id]
    if (!en || en === pt) continue
    for (const piece of en.split(/\{\w+\}|<[^>]+>/)) {
      const p = piece.trim().replace(/^[(),:;·.]+|[(),:;·.]+$/g, '').trim()
      if (p.length > 0 && !pt.includes(p)) pieces.add(p)
    }
  }
  return [...pieces]
}

/**
 * The pieces found in what a person reads of `text`: its text between tags and its title,
 * placeholder and aria-label attributes (class names, ids and data attributes are machine words).
 * A piece of several words counts anywhere in them; a one-word piece only as a whole one.
 */
function englishLeft(text: string, ids: MessageId[]): string[] {
  const read = [
    ...text.split(/<[^>]*>/),
    ...[...text.matchAll(/\b(?:title|placeholder|aria-label)="([^"]*)"/g)].map((m) => m[1]!),
  ].flatMap((s) => s.split('\n')).map((s) => s.trim()).filter((s) => s.length > 0)
  return englishPieces(ids).filter((p) => (/\s/.test(p) ? read.some((s) => s.includes(p)) : read.some((s) => s === p)))
}

const ids = (prefix: string): MessageId[] => (Object.keys(MESSAGES) as MessageId[]).filter((id) => id.startsWith(prefix))
const visible = (html: string) => html.replace(/<script\b[\s\S]*?<\/script>/g, '')

describe('report.html in pt-BR', () => {
  const html = renderHtml(results, 'pt-BR')
  const page = visible(html)

  test('no fixed English string of the kit is left', () => {
    expect(englishLeft(page, [...ids('html.'), ...ids('status.'), ...ids('testability.'), ...ids('severity.'), ...ids('verdict.')])).toEqual([])
    expect(page).toContain('<html lang="pt-BR">')
    expect(page).toContain('Relatório de conformidade')
  })

  test('every clause statement is the Portuguese one', () => {
    for (const clause of CATALOGUE) {
      expect(page).toContain(`<td>${escHtml(PT.get(clause.id)!)}</td>`)
      if (clause.statement !== PT.get(clause.id)) expect(page).not.toContain(`<td>${escHtml(clause.statement)}</td>`)
    }
  })

  test('the headline and badge are the verdict in Portuguese; what the check wrote is in Portuguese too', () => {
    expect(results.verdict.result).toBe('FAILED')
    expect(page).toContain('>REPROVADO<')
    expect(page).toContain(escHtml(headlineIn('pt-BR', results.verdict.headline)))
    expect(headlineIn('pt-BR', results.verdict.headline)).toMatch(/^REPROVADO — cláusulas obrigatórias verificadas [\d.]+% < 90% \(--require-verified\); \d+ de \d+ cláusulas obrigatórias verificadas \(/)
    expect(headlineIn('pt-BR', results.verdict.headline).replace(/--[a-z-]+/g, '')).not.toMatch(/must clauses|verified|failed|blocked|skipped|have no check/)
    expect(page).toContain('Os textos das verificações estão traduzidos')
    // what the check wrote, in Portuguese; results.json keeps it as it was written
    expect(page).toContain('status: esperado 400, obtido 201')
    expect(page).not.toContain('status: expected 400, got 201')
  })

  test('English stays the default', () => {
    const english = renderHtml(results)
    expect(english).toContain('<html lang="en">')
    expect(english).toContain('Conformance report')
    expect(english).toContain(escHtml(results.verdict.headline))
    expect(english).toContain(`<td>${escHtml(CATALOGUE[0]!.statement)}</td>`)
    expect(english).not.toContain('Os textos das verificações')
    expect(english).toContain('status: expected 400, got 201')
  })
})

describe('the console summary in pt-BR', () => {
  test('no fixed English string of the kit is left', () => {
    const text = inLang('pt-BR', () => summaryText(results, '/tmp/run', paint(false)))
    expect(englishLeft(text, ids('console.'))).toEqual([])
    expect(text).toContain(headlineIn('pt-BR', results.verdict.headline))
    expect(text).toContain('status: esperado 400, obtido 201')  // what the check wrote, translated
    expect(text).toMatch(/^ {2}área\s+aprov\./m)
  })
})

describe('the certificate in pt-BR', () => {
  const runDir = join(dir, 'run')
  const file = join(dir, 'certificate.json')
  const made = makeCertificate(results, { specsDir: join(REPO_ROOT, 'specs'), lang: 'pt-BR' })
  writeFileSync(file, made.text)

  test('its readable block is in Portuguese: statement, headline and every clause', () => {
    const readable = made.certificate.readable!
    expect(readable.lang).toBe('pt-BR')
    expect(readable.headline).toBe(headlineIn('pt-BR', results.verdict.headline))
    expect(englishLeft([readable.statement, readable.headline, ...Object.values(readable.clauses)].join('\n'), [...ids('cert.'), ...ids('status.')])).toEqual([])
    expect(readable.clauses['4.10.txid-length']).toBe(`reprovada: ${PT.get('4.10.txid-length')}`)
    expect(Object.keys(readable.clauses)).toHaveLength(CATALOGUE.length)
  })

  test('verify prints it in Portuguese and checks its words against results.json', () => {
    const outcome = verifyCertificate(file)
    expect(outcome.ok).toBe(true)
    const text = verifyText(file, outcome)
    expect(englishLeft(text, ids('cert.'))).toEqual([])
    expect(text).toContain(`  ${'resultado:'.padEnd(15)}${headlineIn('pt-BR', results.verdict.headline)}`)
    expect(text).toMatch(/^ {2}cláusulas: +\d+ sem cobertura, 1 inconclusiva, 1 bloqueada, 1 pulada, 1 aprovada, 1 reprovada$/m)
    expect(text.split('\n').at(-1)).toBe('VERIFICADO')

    writeRunFolder(runDir)
    expect(verifyCertificate(file, { resultsDir: runDir }).ok).toBe(true)
  })

  test('an English run adds no readable block', () => {
    expect(makeCertificate(results, { specsDir: join(REPO_ROOT, 'specs'), lang: 'en' }).certificate.readable).toBeUndefined()
  })
})

describe('a monitor alert in pt-BR', () => {
  test('its line names the clause by its Portuguese statement, in Portuguese words', () => {
    const change = { kind: 'clause-failed' as const, clause: '4.10.txid-length', summary: '4.10.txid-length failed (passed before; confirmed by a second run)', checks: [{ check: 'b', message: '4.10.txid-length — status: expected 400, got 201', traceId: 'a'.repeat(32) }] }
    const ctx = { target: 'http://127.0.0.1:4000', run: { runId: 'r1', seq: 3, startedAt: 0, reportDir: '/tmp/r1' }, clause: { statement: 'txid is 26 to 35', level: 'must', severity: 'data' } }
    const body = alertBody(change as never, ctx, 'pt-BR')
    expect(body.statement).toBe(PT.get('4.10.txid-length'))
    const line = alertLine(body)
    expect(englishLeft(line, ids('alert.'))).toEqual([])
    expect(line).toContain('ALERTA cláusula reprovada: 4.10.txid-length reprovada (aprovada antes; confirmado por uma segunda execução)')
    expect(line).toContain('status: esperado 400, obtido 201')
    expect(alertLine(alertBody(change as never, ctx, 'en'))).toContain('ALERT clause-failed: 4.10.txid-length failed (passed before; confirmed by a second run)')
  })
})

/** A run folder holding these results, as the CLI writes it. */
function writeRunFolder(runDir: string): void {
  mkdirSync(runDir, { recursive: true })
  writeFileSync(join(runDir, 'results.json'), `${JSON.stringify(results, null, 2)}\n`)
}

function escHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;')
}

describe('the headline in pt-BR', () => {
  test.each([
    ['FAILED — 3 of 10 must clauses verified (2 failed; 1 needs --reset; 4 have no check)', 'REPROVADO — 3 de 10 cláusulas obrigatórias verificadas (2 reprovadas; 1 exige --reset; 4 sem verificação)'],
    ['PASSED (gate) — 10 of 10 must clauses of auth verified', 'APROVADO (critério) — 10 de 10 cláusulas obrigatórias de auth verificadas'],
    ['INCOMPLETE — 9 of 10 must clauses verified (1 blocked by a failed precondition; shard 2/3 missing; 1 check flaky: passed only on a retry)', 'INCOMPLETO — 9 de 10 cláusulas obrigatórias verificadas (1 bloqueada por uma pré-condição que falhou; fração 2/3 ausente; 1 verificação instável: passou só numa nova tentativa)'],
    ['CONDITIONAL PASS — 9 of 10 must clauses verified (1 waived)', 'APROVADO COM RESSALVAS — 9 de 10 cláusulas obrigatórias verificadas (1 dispensada)'],
    ['PASSED — sandbox — 10 of 10 receiver clauses verified', 'APROVADO — sandbox — 10 de 10 cláusulas do receptor verificadas'],
    ['x-acme — 1 of 2 must clauses of the extension verified (1 skipped)', 'x-acme — 1 de 2 cláusulas obrigatórias da extensão verificadas (1 pulada)'],
  ])('%s', (en, pt) => {
    expect(headlineIn('pt-BR', en)).toBe(pt)
    expect(headlineIn('en', en)).toBe(en)
  })
})
