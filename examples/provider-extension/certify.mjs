// One certification: the kit's checks (here one suite file, for speed) plus Acme's, against the
// embedded reference and the Acme stub. `node certify.mjs --broken` makes the stub break one rule.
// Extra arguments go to pix-conformance (e.g. --certificate cert.json, --tag vendor-field).
import { spawn } from 'node:child_process'
import { startStub } from './stub.mjs'

const argv = process.argv.slice(2)
const broken = argv.includes('--broken')
const stub = await startStub({ broken })
const kitArgs = ['--file', 'charges/errors.test.ts', '--suites', 'suites', '--clauses', 'clauses.yaml', ...argv.filter((a) => a !== '--broken')]
const child = spawn('npx', ['pix-conformance', ...kitArgs], { stdio: 'inherit', env: { ...process.env, PIX_X_ACME_URL: stub.url } })
const code = await new Promise((done) => child.on('exit', (c) => done(c ?? 1)))
await stub.close()
process.exit(code)
