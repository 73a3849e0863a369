// `pix-conformance init`: the template names every setting that describes a target, once.
import { expect, test } from 'vitest'
import { envTemplate } from '../../../cli/init.ts'
import { TARGET_SETTINGS } from '../../../harness/config.ts'

test('the env template has a commented line for every target setting, once', () => {
  const template = envTemplate()
  for (const name of TARGET_SETTINGS) expect(template.match(new RegExp(`^(# )?${name}=$`, 'gm')), name).toHaveLength(1)
})
