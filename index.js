// Entry of the package: `import { certify } from 'pix-conformance-kit'` (the kit is TypeScript run by tsx).
import { register } from 'tsx/esm/api'

register()
const api = await import('./cli/api.ts')
export const certify = api.certify
