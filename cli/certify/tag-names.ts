// --tag and --exclude-tag name tags a check carries (harness/check.ts tagsOf): its area, its
// clauses' severities, its needs, and tags of its own (an extension's checks may have some). A
// tag no check carries selects nothing, or excludes nothing: a typo, refused before the run with
// the nearest tag, as --area and --check are.
import { SEVERITY_ORDER } from '../reporting/severity.ts'
import { NEEDS } from '../../harness/need-names.ts'
import { suiteAreas } from '../../harness/suite-files.ts'
import { didYouMean } from '../did-you-mean.ts'
import { ArgsError } from '../flags.ts'

/** The tags every kit check may carry: areas (the folders under suites/), severities, needs. */
export function kitTags(suitesDir: string): string[] {
  const areas = suiteAreas(suitesDir)
  return [...new Set([...areas, ...SEVERITY_ORDER, ...NEEDS])]
}

/**
 * Every --tag and --exclude-tag must be a tag some kit check carries (an extension's checks, --suites,
 * may carry tags of their own, known only once collected: the caller does not ask then).
 */
export function checkTags(tags: { flag: '--tag' | '--exclude-tag'; values: readonly string[] }[], suitesDir: string): void {
  const known = kitTags(suitesDir)
  for (const { flag, values } of tags) {
    for (const tag of values) {
      if (!known.includes(tag)) throw new ArgsError(flag, `no check carries the tag "${tag}"${didYouMean(tag, known)} (the tags: ${known.join(', ')})`)
    }
  }
}
