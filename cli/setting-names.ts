// The PIX_* names an --env file may set: those `pix-conformance init` writes (the target's, and
// the run's that flags stand for), those the CLI hands its workers, and an extension's own
// (PIX_X_<VENDOR>_…, docs/EXTENDING.md). Any other is a typo whose setting the run would silently
// go without (PIX_CONTROL_URI= leaves the run without a control API): exit 2, with the nearest name.
import { ConfigError } from '../harness/config.ts'
import { didYouMean } from './did-you-mean.ts'
import { FLAGS } from './flags.ts'
import { INTERNAL_SETTINGS, templateSettings } from './init.ts'

/** What the CLI sets for its workers' scheduling (harness/pacing-store.ts, cli/certify/run.ts). */
const WORKER_SETTINGS = ['PIX_RUN_ID', 'PIX_PACING_SHARED', 'PIX_PACING_DIR']

/** An extension's own settings (docs/EXTENDING.md: PIX_X_ACME_URL). */
const EXTENSION_SETTING = /^PIX_X_[A-Z0-9_]+$/

export function knownSettings(): string[] {
  const flagWorkerEnv = FLAGS.flatMap((r) => ('workerEnv' in r && r.workerEnv ? [r.workerEnv] : []))
  return [...new Set([...templateSettings(), ...INTERNAL_SETTINGS, ...flagWorkerEnv, ...WORKER_SETTINGS])]
}

/** Refuses the first PIX_* name of the file no setting has, naming the nearest that does. */
export function checkSettingNames(fileEnv: Record<string, string>, file: string): void {
  const known = knownSettings()
  for (const name of Object.keys(fileEnv)) {
    if (!name.startsWith('PIX_') || known.includes(name) || EXTENSION_SETTING.test(name)) continue
    const near = didYouMean(name, known.filter((k) => !(INTERNAL_SETTINGS as readonly string[]).includes(k)))
    throw new ConfigError(name, `${file} sets a setting the kit does not know${near} (pix-conformance init writes every setting; an extension's own begin PIX_X_)`)
  }
}
