// The documents made from the kit's own definitions, so that they cannot drift from it:
// docs/CLAUSES.md (what is certified: specs/clauses.yaml by section) and the defaults, command
// list and flag table of the README (cli/flags.ts DEFAULTS and FLAGS, the subcommand table of
// cli/commands/). `npm run docs` writes them; test/unit/cli/docs.test.ts fails when one is out of step.
import { readFileSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parse } from 'yaml'
import { FLAGS, defaultsLines, flagDefault, flagSyntax } from './flags.ts'
import { sectionTitle } from './reporting/html.ts'
import { subcommands, type Subcommand } from './subcommand.ts'

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')
export const CLAUSES_MD = join(REPO_ROOT, 'docs', 'CLAUSES.md')
export const README = join(REPO_ROOT, 'README.md')
export const FLAGS_START = '<!-- flags: made by `npm run docs` from cli/flags.ts; edit the table there -->'
export const FLAGS_END = '<!-- /flags -->'

interface CatalogueEntry {
  id: string
  section: string
  statement: string
  testability: string
  level: string
  severity?: string
  also?: string[]
}

/** docs/CLAUSES.md from the text of specs/clauses.yaml; fields it does not know are left out. */
export function renderClauses(yamlText: string): string {
  const clauses = ((parse(yamlText) as { clauses?: CatalogueEntry[] }).clauses ?? []).filter((c) => c && typeof c.id === 'string')
  const withSeverity = clauses.some((c) => typeof c.severity === 'string')
  const sections = new Map<string, CatalogueEntry[]>()
  for (const c of clauses) sections.set(String(c.section), [...(sections.get(String(c.section)) ?? []), c])
  const head = ['clause', 'statement', 'testability', 'level', ...(withSeverity ? ['severity'] : [])]
  const lines = [
    '# What is certified: the clause catalogue',
    '',
    '<!-- made by `npm run docs` from specs/clauses.yaml; edit the catalogue, not this file -->',
    '',
    `Every normative statement of the PIX service interface, once, with an id: ${clauses.length} clauses in`,
    `${sections.size} sections. A check names the clauses it verifies, and every verdict of a run (console,`,
    '`results.json`, `report.html`, `junit.xml`) is reported by these ids.',
    '',
    '- **level** `must`: the target must do this; a check that sees it broken fails the run. `info`: the',
    '  interface leaves it open or it cannot be provoked; what the target does is observed, never failed.',
    '- **testability** `black-box`: plain requests to the two APIs show it. `needs-control`: the sandbox',
    '  driver (`PIX_CONTROL_URL`, specs/control.yaml) or the webhook capture must make the world act.',
    '  `not-shown`: the interface does not say; the target\'s choice is recorded in `profile.json`.',
    ...(withSeverity ? ['- **severity**: how much a failure of the clause weighs, as the catalogue grades it.'] : []),
    '',
    '## Sections',
    '',
    ...[...sections.keys()].map((s) => `- [§${s} ${sectionTitle(s)}](#${anchorOf(s)}) (${sections.get(s)!.length})`),
  ]
  for (const [section, entries] of sections) {
    lines.push('', `## §${section} ${sectionTitle(section)}`.trimEnd(), '', `| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`)
    for (const c of entries) {
      const also = c.also?.length ? ` (also §${c.also.join(', §')})` : ''
      lines.push(`| \`${c.id}\` | ${cell(c.statement)}${also} | ${cell(c.testability)} | ${cell(c.level)} |${withSeverity ? ` ${cell(c.severity ?? '')} |` : ''}`)
    }
  }
  return `${lines.join('\n')}\n`
}

/** GitHub's heading anchor of `## §<section> <title>`. */
function anchorOf(section: string): string {
  return `§${section} ${sectionTitle(section)}`.trim().toLowerCase().replace(/[^\p{L}\p{N} -]/gu, '').replace(/ /g, '-')
}

function cell(text: unknown): string {
  return String(text ?? '').replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ')
}

/** The README's flag table: every row of FLAGS, its setting and its default. */
export function renderFlagTable(): string {
  const rows = FLAGS.map((r) => `| \`${flagSyntax(r)}\` | ${'env' in r && r.env ? `\`${r.env}\`` : ''} | ${cell(flagDefault(r) ?? '')} | ${cell(r.help)} |`)
  return [FLAGS_START, '| flag | setting | default | what it does |', '|---|---|---|---|', ...rows, FLAGS_END].join('\n')
}

export const DEFAULTS_START = '<!-- defaults: made by `npm run docs` from cli/flags.ts DEFAULTS -->'
export const DEFAULTS_END = '<!-- /defaults -->'

/** The README's statement of the defaults, as --help and `init` give it. */
export function renderDefaults(): string {
  return [DEFAULTS_START, ...defaultsLines('- '), DEFAULTS_END].join('\n')
}

export const COMMANDS_START = '<!-- commands: made by `npm run docs` from cli/commands/, one file per subcommand -->'
export const COMMANDS_END = '<!-- /commands -->'
/** The reference target alone: a command of its own (bin/pix-reference.js), not a subcommand. */
const REFERENCE_ROW = '| `pix-reference [--port N] [--env-out FILE]` (`npm run reference -- …`) | the reference target alone, as a local sandbox; stops on Ctrl+C or SIGTERM and removes its env file and its certificates (a temporary folder; `--out-dir DIR` keeps them there) |'

/** The README's command table: a row per subcommand of the table, then the reference target's. */
export function renderCommandTable(table: readonly Subcommand[]): string {
  return [COMMANDS_START, '| command | what it does |', '|---|---|', ...table.map((c) => `| ${c.readme.command} | ${c.readme.what}${c.readme.doc ? ` ([${c.readme.doc}](${c.readme.doc}))` : ''} |`), REFERENCE_ROW, COMMANDS_END].join('\n')
}

/** The README with its generated blocks (the defaults, the command list, the flag table) made afresh. */
export function readmeWithGenerated(readme: string, table: readonly Subcommand[]): string {
  const blocks: [string, string, string][] = [[DEFAULTS_START, DEFAULTS_END, renderDefaults()], [COMMANDS_START, COMMANDS_END, renderCommandTable(table)], [FLAGS_START, FLAGS_END, renderFlagTable()]]
  return blocks.reduce((text, [start, end, block]) => replaceBlock(text, start, end, block), readme)
}

function replaceBlock(text: string, startMarker: string, endMarker: string, block: string): string {
  const start = text.indexOf(startMarker)
  const end = text.indexOf(endMarker)
  if (start < 0 || end < start) throw new Error(`README.md has no markers ${startMarker} … ${endMarker}`)
  return `${text.slice(0, start)}${block}${text.slice(end + endMarker.length)}`
}

const invokedDirectly = process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)
if (invokedDirectly) {
  writeFileSync(CLAUSES_MD, renderClauses(readFileSync(join(REPO_ROOT, 'specs', 'clauses.yaml'), 'utf8')))
  writeFileSync(README, readmeWithGenerated(readFileSync(README, 'utf8'), await subcommands()))
  process.stdout.write(`wrote ${CLAUSES_MD} and the generated blocks of ${README}\n`)
}
