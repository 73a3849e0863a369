// `--version`: the kit's version (package.json) and the hash of the specs it certifies against,
// the same `specHash` results.json and a certificate carry, so a report can be matched to a kit.
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { SPEC_FILES, kitVersion, specHash } from './reporting/run-info.ts'

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')

export function versionText(repoRoot = REPO_ROOT): string {
  return [
    `pix-conformance-kit ${kitVersion(repoRoot)}`,
    `specs ${specHash(repoRoot)} (sha256 of ${SPEC_FILES.join(' + ')}: results.json "specHash")`,
  ].join('\n')
}
