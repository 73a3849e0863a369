// tsc's verdict on one fixture file under the repository's tsconfig.json: `file:line: message` per
// error. Fixtures (`*.types.ts`) are compiled, never run: they hold a restated type against its source.
import { fileURLToPath } from 'node:url'
import ts from 'typescript'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))

export function typeErrors(fixture: URL): string[] {
  const { config } = ts.readConfigFile(`${ROOT}tsconfig.json`, ts.sys.readFile) as { config: unknown }
  const { options } = ts.parseJsonConfigFileContent(config, ts.sys, ROOT)
  const program = ts.createProgram([fileURLToPath(fixture)], options)
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const at = d.file && d.start !== undefined ? `${d.file.fileName.slice(ROOT.length)}:${d.file.getLineAndCharacterOfPosition(d.start).line + 1}: ` : ''
    return at + ts.flattenDiagnosticMessageText(d.messageText, '\n')
  })
}
