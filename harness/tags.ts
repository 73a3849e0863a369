// --tag and --exclude-tag (docs/EXTENDING.md "Tags"): a check's tags against the run's selection,
// decided when the check is declared, so that a check left out is not collected at all.

/** --tag (any of, PIX_TAGS) and --exclude-tag (none of, PIX_EXCLUDE_TAGS), comma lists. */
export function selectedByTags(tags: readonly string[], env: NodeJS.ProcessEnv = process.env): boolean {
  const wanted = commaList(env.PIX_TAGS)
  const excluded = commaList(env.PIX_EXCLUDE_TAGS)
  return (wanted.length === 0 || wanted.some((t) => tags.includes(t))) && !excluded.some((t) => tags.includes(t))
}

const commaList = (value: string | undefined): string[] => (value ?? '').split(',').map((t) => t.trim()).filter(Boolean)
