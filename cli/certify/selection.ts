// What a certification runs: --area, --file, --check and --tag are checked against suites/ before
// anything runs (an unknown one is exit 2, with the nearest names), and become vitest's filters.
import { existsSync, readdirSync } from 'node:fs'
import { dirname, join, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { BALANCE_ACCOUNT_REASONS, suiteAreas, suiteFilesDeclaringAlone } from '../../harness/suite-files.ts'
import { ArgsError, type CliArgs } from '../flags.ts'
import { loadExtension, type Extension } from './extension.ts'
import { closestIds, selectChecks } from './list.ts'
import { checkTags } from './tag-names.ts'

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
export const SUITES_DIR = join(REPO_ROOT, 'suites')

/**
 * Checks the selection flags against the suites and the extension; with --check, the titles it
 * picked (vitest's testNamePattern) and their files, which become `args.files`.
 */
export async function selectRun(args: CliArgs): Promise<{ files: string[]; namePattern: string } | undefined> {
  const extension = loadExtension(args.clauses, args.suites)
  checkAreas(args.areas.filter((a) => !extension?.suitesDir || a !== extension.catalogue.namespace))
  checkFiles(args.files, args.areas)
  // an extension's checks may carry tags of their own, known only once collected
  if (!args.suites) checkTags([{ flag: '--tag', values: args.tags }, { flag: '--exclude-tag', values: args.excludeTags }], SUITES_DIR)
  const selection = args.check ? (extensionCheck(args, extension) ?? await selectChecks(REPO_ROOT, args.check, suiteFilters(args))) : undefined
  if (selection) args.files = selection.files
  return selection
}

/** Every --area must name an area: a folder under suites/ with a suite file. */
function checkAreas(areas: string[]): void {
  const known = suiteAreas(SUITES_DIR)
  for (const area of areas) {
    if (!known.includes(area)) throw new ArgsError('--area', `unknown area "${area}" (known: ${known.join(', ') || 'none'})`)
  }
}

/** Every --file must exist under suites/, and lie in one of the --area folders when both are given. */
function checkFiles(files: string[], areas: string[]): void {
  for (const file of files) {
    if (!existsSync(join(SUITES_DIR, file))) {
      const closest = closestIds(file, suiteFilesUnder(SUITES_DIR))
      throw new ArgsError('--file', `no suite file suites/${file}${closest.length > 0 ? `; the closest: ${closest.join(', ')}` : ''}`)
    }
    const area = file.split('/')[0] ?? ''
    if (areas.length > 0 && !areas.includes(area)) throw new ArgsError('--file', `${file} is not in the areas given by --area (${areas.join(', ')})`)
  }
}

/** Every suite file, relative to suites/ (area/name.test.ts). */
function suiteFilesUnder(dir: string): string[] {
  if (!existsSync(dir)) return []
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.test.ts')).map((f) => f.split(sep).join('/')).sort()
}

/** vitest file filters: the files when given (narrower), else the area folders, else everything. */
export function suiteFilters(args: CliArgs): string[] {
  const extensionArea = (a: string) => args.suites !== undefined && a.startsWith('x-')
  // --file narrows the kit's suites, and the extension's run beside them; --area x-<vendor> names the extension's
  if (args.files.length > 0) return [...args.files.map((f) => `suites/${f}`), ...(args.suites ? [args.suites] : [])]
  return args.areas.map((a) => (extensionArea(a) ? args.suites! : `suites/${a}/`))
}

/** --check of an extension's check (`x-acme/<path>::<title>`): its title among the extension's suites, no kit suite. */
function extensionCheck(args: CliArgs, extension: Extension | undefined): { files: string[]; namePattern: string } | undefined {
  const namespace = extension?.suitesDir ? extension.catalogue.namespace : undefined
  const at = args.check!.indexOf('::')
  if (!namespace || !args.check!.startsWith(`${namespace}/`) || at < 0) return undefined
  args.areas = [namespace]
  return { files: [], namePattern: `^${args.check!.slice(at + 2).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$` }
}

/** Whether the selected files hold a check meant for a balance account (a --check pattern may pick any of theirs). */
export function selectsBalanceAccountChecks(args: CliArgs): boolean {
  const filters = suiteFilters(args)
  return filters.length === 0 || suiteFilesDeclaringAlone(BALANCE_ACCOUNT_REASONS).some((file) => filters.some((filter) => file.includes(filter)))
}
