// `pix-conformance check-driver`: a sandbox's control API against specs/control.yaml (harness/driver-check.ts).
import { ConfigError, MAX_TIMEOUT_MS, loadConfig, loadDotenv, secretValues } from '../../harness/config.ts'
import { flagLines, mergeEnv } from '../args.ts'
import { say, scrubber, unusable } from '../console.ts'
import { driverReportPt } from '../driver-report-pt-BR.ts'
import { langOf } from '../reporting/i18n.ts'
import { progress } from '../reporting/progress-i18n.ts'
import { EXIT_FAILED, EXIT_PASSED } from '../exit-codes.ts'
import { integer, nonEmpty } from '../flags.ts'
import { checkSettingNames } from '../setting-names.ts'
import { helpRow, readFlags, valueOf, valueRow, type Subcommand } from '../subcommand.ts'

const envRow = valueRow('envFile', '--env', 'FILE', nonEmpty, "dotenv file with PIX_CONTROL_URL and the target's PIX_* settings")
const timeoutRow = valueRow('timeoutMs', '--timeout', 'MS', (v, flag) => integer(flag, v, 1, MAX_TIMEOUT_MS), `time limit of each request (1..${MAX_TIMEOUT_MS})`)

const FLAG_ROWS = [envRow, timeoutRow, helpRow]

const USAGE = `Usage: pix-conformance check-driver --env FILE [--timeout MS]
       (in the repository: npm run conformance -- check-driver --env FILE)

Checks a sandbox's control API (PIX_CONTROL_URL) against specs/control.yaml: each route is
provided, refused (501, 404, 405: the driver does not offer it), wrong (an answer that does not
match the contract) or unchecked (its setup failed). It changes the sandbox: it resets it first
and last, and makes payments, charges and slips on the primary account.

${FLAG_ROWS.flatMap(flagLines).join('\n')}

Exit codes: 0 every route a vendor must provide is provided, 1 otherwise, 2 bad config.`

interface CheckDriver {
  envFile?: string
  timeoutMs?: number
  help: boolean
}

export const command: Subcommand<CheckDriver> = {
  name: 'check-driver',
  order: 1,
  synopsis: 'check-driver --env FILE',
  summary: 'the sandbox driver against specs/control.yaml',
  summaryPt: 'o driver de sandbox contra specs/control.yaml',
  readme: { command: '`pix-conformance check-driver --env FILE`', what: "check a sandbox's control API against `specs/control.yaml` (it resets the sandbox)" },
  flags: FLAG_ROWS,
  parse(argv) {
    const read = readFlags('check-driver', argv, FLAG_ROWS)
    const envFile = valueOf(envRow, read)
    const timeoutMs = valueOf(timeoutRow, read)
    return { help: read.flags.help === true, ...(envFile !== undefined ? { envFile } : {}), ...(timeoutMs !== undefined ? { timeoutMs } : {}) }
  },
  answer: (c) => (c.help ? USAGE : undefined),
  async run(c) {
    try {
      const fileEnv = c.envFile ? loadDotenv(c.envFile) : {}
      if (c.envFile) checkSettingNames(fileEnv, c.envFile)
      const env = mergeEnv(process.env, fileEnv, c.timeoutMs ? { PIX_TIMEOUT_MS: String(c.timeoutMs) } : {})
      const config = loadConfig(env)
      for (const s of secretValues(config)) scrubber.add(s.name, s.value)
      if (!config.controlUrl) throw new ConfigError('PIX_CONTROL_URL', 'is required by check-driver but not set')
      const { checkDriver, driverComplete, formatDriverReport } = await import('../../harness/driver-check.ts')
      const lang = langOf(env.PIX_LANG)  // the --env file's PIX_LANG too
      say(progress('run.checkingDriver', { url: config.controlUrl }, lang))
      const report = await checkDriver(config.controlUrl, {
        baseUrl: config.baseUrl, gatewayUrl: config.gatewayUrl, clientId: config.clientId, clientSecret: config.clientSecret, apiKey: config.apiKey, timeoutMs: config.timeoutMs,
      })
      say(lang === 'en' ? formatDriverReport(report) : driverReportPt(report, lang))
      return driverComplete(report) ? EXIT_PASSED : EXIT_FAILED
    } catch (e) {
      if (e instanceof ConfigError) return unusable(e)
      throw e
    }
  },
}
