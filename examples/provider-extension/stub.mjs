// Acme's extension API as a stub: what the example certifies beside the kit's embedded reference.
// `broken: true` answers a reference of the wrong format (the example's deliberately failing run).
import { createServer } from 'node:http'

export async function startStub({ broken = false } = {}) {
  const routes = {
    '/acme/v1/account': () => ({ acmeReference: broken ? 'acme_42' : 'ACME-42' }),
    '/acme/v1/settlements': () => ({ settlements: [{ id: 's1', amount: '10.00' }, { id: 's2', amount: '2.50' }] }),
  }
  const server = createServer((req, res) => {
    const route = routes[new URL(req.url ?? '/', 'http://stub').pathname]
    res.writeHead(route ? 200 : 404, { 'content-type': 'application/json' })
    res.end(JSON.stringify(route ? route() : { error: 'not found' }))
  })
  await new Promise((ready) => server.listen(0, '127.0.0.1', ready))
  return { url: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((done) => server.close(done)) }
}
