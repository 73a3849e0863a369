// `pix-reference` (and `npm run reference`, which execs it) as a user stops it: a SIGTERM to its
// pid stops the whole tree (tsx runs in-process, its esbuild service dies with it) and removes the
// env file it wrote, which says why it asks for the sandbox profile.
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { afterAll, expect, test } from 'vitest'

const REPO_ROOT = resolve(import.meta.dirname, '..', '..', '..')
const dir = mkdtempSync(join(tmpdir(), 'pix-reference-process-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const alive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

async function until(condition: () => boolean, limitMs: number): Promise<boolean> {
  const end = Date.now() + limitMs
  while (Date.now() < end) {
    if (condition()) return true
    await new Promise((r) => setTimeout(r, 100))
  }
  return condition()
}

test('SIGTERM stops pix-reference with its whole process group and removes its env file and its certificates (kept in a temporary folder, not beside the env file)', async () => {
  const envFile = join(dir, 'reference.env')
  const child = spawn(process.execPath, ['bin/pix-reference.js', '--port', '0', '--env-out', envFile, '--quiet'], { cwd: REPO_ROOT, stdio: 'ignore', detached: true })
  const exited = new Promise<number | null>((settle) => child.on('exit', (code) => settle(code)))
  try {
    expect(await until(() => existsSync(envFile), 30_000), 'the env file was written').toBe(true)
    const envText = readFileSync(envFile, 'utf8')
    expect(envText).toMatch(/^# .*readonly.*\nPIX_PROFILE=sandbox$/m)
    const certFile = /^PIX_CERT_FILE=(.+)$/m.exec(envText)![1]!.replace(/^"|"$/g, '')
    expect(existsSync(certFile)).toBe(true)
    expect(dirname(certFile)).not.toBe(dir)
    expect(readdirSync(dir)).toEqual(['reference.env'])
    process.kill(child.pid!, 'SIGTERM')
    expect(await exited).toBe(0)
    expect(existsSync(envFile), 'the env file stayed behind').toBe(false)
    expect(existsSync(dirname(certFile)), 'the certificates stayed behind').toBe(false)
    expect(await until(() => !alive(-child.pid!), 5_000), 'a process of its group outlived it').toBe(true)
  } finally {
    if (alive(-child.pid!)) process.kill(-child.pid!, 'SIGKILL')
  }
}, 40_000)

test('its usage names the command a person types', async () => {
  const child = spawn(process.execPath, ['bin/pix-reference.js', '--help'], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] })
  let text = ''
  child.stderr.on('data', (d: Buffer) => (text += d))
  child.stdout.on('data', (d: Buffer) => (text += d))
  await new Promise((r) => child.on('close', r))
  expect(text).toMatch(/^usage: pix-reference \[--port N\]/)
}, 30_000)
