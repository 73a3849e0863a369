// The texts the checks write, as msgids of specs/messages.pt-BR.yaml: a static scan of suites/ and
// harness/ (TypeScript's parser) for check titles and for every string or template literal that reads
// as an English phrase. `${…}` becomes `{}`, a placeholder for a value kept as it is (or itself
// translated when it is a known text). `tsx scripts/messages-extract.ts` prints the msgids the
// catalogue lacks, ready to paste; test/unit/cli/messages-pt-br.test.ts fails on them.
import { readFileSync, readdirSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const SCANNED = ['suites', 'harness']

/** Words that make a literal an English phrase rather than a field name, an id or a value. */
export const ENGLISH_WORDS = /\b(?:the|a|an|is|are|was|were|be|been|not|no|of|to|in|on|at|by|for|from|with|without|when|which|that|this|its|it|and|or|but|as|than|then|has|have|had|does|did|do|should|must|can|cannot|only|every|each|any|one|two|none|before|after|while|into|under|over|same|other|another|expected|got|failed|returns|answers|gives|shows|says|never|still|once|per|their|his|her|there|what|whose|how|where)\b/i

export interface Msgid {
  text: string
  /** First place it was found: `suites/x.test.ts:12`. */
  where: string
}

/** `${…}` → `{}`; the literal text of a template otherwise. */
function templateText(node: ts.TemplateExpression): string {
  return node.head.text + node.templateSpans.map((s) => `{}${s.literal.text}`).join('')
}

/** Values the kit sends or the interface enumerates, which read as words: kept as they are. */
const VALUES = /^(?:Pix in|Pix out|Refund in|Refund out)$|^conformance kit\b|^kit(?::| (?!bug:))/i

/**
 * Whether a literal reads as English words rather than a field name, an id or a value: two or more
 * words, one of them an English function word, or a plain lower-case word beside field names (a
 * rule's label: "public netBalance", "{} items"). Title Case only is a value (a payer's name, an
 * HTTP reason phrase).
 */
export function isPhrase(text: string): boolean {
  const plain = text.replace(/\{\}/g, ' ')
  const words = plain.match(/[A-Za-z][A-Za-z'-]*/g) ?? []
  if (words.length === 0 || !/\s/.test(text.trim()) || /^(?:\/|https?:)/.test(text) || VALUES.test(text.trim())) return false
  if (words.every((w) => /^[A-Z]/.test(w))) return false
  if (words.length >= 2 && ENGLISH_WORDS.test(plain)) return true
  return words.some((w) => /^[a-z]{3,}$/.test(w) && !/^(?:https?|json|utf|cob|pix|txid|chave|valor|devedor|nome|cpf|cnpj|natureza|descricao|motivo|original|horario)$/.test(w))
}

const CLAUSE_ID = /^(?:\d+(?:\.\d+)*\.[a-z0-9-]+|R\.[a-z0-9.-]+)$/

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [])
}

/** Every msgid of the scanned folders: check titles (always) and English phrases, each once, in file order. */
export function extractMessages(root = ROOT): Msgid[] {
  const found = new Map<string, string>()
  // a message is translated line by line: each line of a literal is a msgid of its own
  const add = (text: string, where: string) => {
    for (const line of text.split('\n')) {
      const t = line.trim()
      if (t.length > 0 && !found.has(t) && !CLAUSE_ID.test(t) && /[A-Za-z]{2}/.test(t)) found.set(t, where)
    }
  }
  for (const file of SCANNED.flatMap((d) => filesUnder(join(root, d))).sort()) {
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true)
    const rel = relative(root, file)
    const visit = (node: ts.Node): void => {
      if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) return
      const where = () => `${rel}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`
      if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'check') {
        const title = node.arguments[0]
        if (title && ts.isStringLiteralLike(title)) add(title.text, where())
        else if (title && ts.isTemplateExpression(title)) add(templateText(title), where())
      }
      if (ts.isStringLiteralLike(node) && isPhrase(node.text)) add(node.text, where())
      if (ts.isTemplateExpression(node)) {
        const text = templateText(node)
        if (isPhrase(text)) add(text, where())
      }
      ts.forEachChild(node, visit)
    }
    visit(source)
  }
  return [...found].map(([text, where]) => ({ text, where }))
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { missingTranslations } = await import('../cli/reporting/messages.ts')
  const all = extractMessages()
  const missing = process.argv.includes('--all') ? all : missingTranslations(all)
  for (const m of missing) console.log(`  # ${m.where}\n  ${JSON.stringify(m.text)}: ""`)
  console.error(`${missing.length} of ${all.length} texts ${process.argv.includes('--all') ? 'found' : 'lack a translation'}`)
}
