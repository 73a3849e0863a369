// What every subcommand prints goes to the console scrubbed: the secrets a command learns (the
// config's credentials) are added to one Scrubber, and while a command runs (cli/main.ts) both
// streams, the kit's lines and vitest's alike, pass through it.
import { EXIT_UNUSABLE } from './exit-codes.ts'
import { Scrubber } from './reporting/scrub.ts'
import { consoleMessageIn } from './console-messages-pt-BR.ts'
import { langOf, type Lang } from './reporting/i18n.ts'

/** The secrets of this process's commands; every line the CLI prints goes through it. */
export const scrubber = new Scrubber()
export const say = (line = ''): void => void process.stdout.write(`${line}\n`)
export const complain = (line: string): void => void process.stderr.write(`${line}\n`)

/** The language of the command running: its --lang words the console before the config is read (cli/main.ts sets it). */
let commandLang: Lang = langOf()
export function setCommandLang(lang: Lang): void {
  commandLang = lang
}
export const commandLanguage = (): Lang => commandLang

/** A command that cannot go on (bad flag, bad config, target unreachable): one line, exit 2. */
export function unusable(e: unknown): number {
  complain(`conformance: ${consoleMessageIn(commandLang, (e as Error).message)}`)
  return EXIT_UNUSABLE
}

/** Whatever reaches stdout or stderr, from us or from vitest, goes out scrubbed; the function returned puts the streams back. */
export function scrubConsole(s: Scrubber): () => void {
  const restores = [process.stdout, process.stderr].map((stream) => {
    const original = stream.write
    const write = original.bind(stream) as (chunk: string, ...rest: unknown[]) => boolean
    stream.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8')
      return write(s.text(text), ...rest)
    }) as typeof stream.write
    return () => {
      stream.write = original
    }
  })
  return () => restores.forEach((restore) => restore())
}
