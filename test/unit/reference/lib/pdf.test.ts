import { describe, expect, it } from 'vitest'
import { renderPdf } from '../../../../reference/lib/pdf.ts'

/** Reads the file the way a PDF reader starts: from startxref to the xref table to each object. */
function parseXref(pdf: Buffer) {
  const text = pdf.toString('latin1')
  const startxref = /startxref\n(\d+)\n%%EOF\n?$/.exec(text)
  expect(startxref, 'startxref before %%EOF').not.toBeNull()
  const xrefAt = Number(startxref![1])
  expect(text.slice(xrefAt, xrefAt + 5)).toBe('xref\n')
  const header = /^xref\n0 (\d+)\n/.exec(text.slice(xrefAt))!
  const count = Number(header[1])
  const entriesAt = xrefAt + header[0].length
  const entries: { offset: number; kind: string }[] = []
  for (let i = 0; i < count; i++) {
    const raw = text.slice(entriesAt + 20 * i, entriesAt + 20 * (i + 1))
    const m = /^(\d{10}) (\d{5}) ([fn]) \n$/.exec(raw)
    expect(m, `xref entry ${i} is 20 bytes: ${JSON.stringify(raw)}`).not.toBeNull()
    entries.push({ offset: Number(m![1]), kind: m![3]! })
  }
  return { text, entries, trailer: text.slice(entriesAt + 20 * count) }
}

function contentStream(text: string): string {
  const m = /5 0 obj\n<< \/Length (\d+) >>\nstream\n/.exec(text)!
  const start = m.index + m[0].length
  const content = text.slice(start, start + Number(m[1]))
  expect(text.slice(start + Number(m[1]), start + Number(m[1]) + 10)).toBe('\nendstream')
  return content
}

describe('renderPdf', () => {
  const pdf = renderPdf('Boleto 123', ['Valor: R$ 10,00', 'Vencimento: 2026-12-01'])

  it('starts with the PDF 1.4 header and ends with %%EOF', () => {
    expect(Buffer.isBuffer(pdf)).toBe(true)
    expect(pdf.subarray(0, 8).toString('latin1')).toBe('%PDF-1.4')
    expect(pdf.toString('latin1').trimEnd().endsWith('%%EOF')).toBe(true)
  })

  it('has an xref whose every offset points at its own "N 0 obj"', () => {
    const { text, entries, trailer } = parseXref(pdf)
    expect(entries[0]).toEqual({ offset: 0, kind: 'f' })
    expect(entries.length).toBe(7)
    entries.slice(1).forEach((e, i) => {
      expect(e.kind).toBe('n')
      expect(text.slice(e.offset, e.offset + `${i + 1} 0 obj\n`.length)).toBe(`${i + 1} 0 obj\n`)
    })
    expect(trailer).toMatch(/^trailer\n<< \/Size 7 \/Root 1 0 R \/Info 6 0 R >>\n/)
  })

  it('draws the title and lines with Helvetica, and the stream length is exact', () => {
    const { text } = parseXref(pdf)
    expect(text).toContain('/BaseFont /Helvetica')
    expect(text).toContain('/Type /Catalog /Pages 2 0 R')
    expect(text).toContain('/Count 1')
    const content = contentStream(text)
    expect(content).toContain('(Boleto 123) Tj')
    expect(content).toContain("(Valor: R$ 10,00) '")
    expect(content).toContain("(Vencimento: 2026-12-01) '")
  })

  it('escapes parentheses and backslashes, and keeps offsets right with Latin-1 text', () => {
    const tricky = renderPdf('a (b) \\ c', ['Ação: pagar (já)', 'x)y(z\\', 'line\nbreak', 'emoji 💸'])
    const { text, entries } = parseXref(tricky)
    entries.slice(1).forEach((e, i) => expect(text.slice(e.offset).startsWith(`${i + 1} 0 obj`)).toBe(true))
    const content = contentStream(text)
    expect(content).toContain('(a \\(b\\) \\\\ c) Tj')
    expect(content).toContain("(A\xE7\xE3o: pagar \\(j\xE1\\)) '")
    expect(content).toContain("(x\\)y\\(z\\\\) '")
    expect(content).toContain("(line break) '")
    expect(content).toContain("(emoji ?) '")
  })

  it('stays a single page, summarising lines that do not fit', () => {
    const many = Array.from({ length: 200 }, (_, i) => `line ${i}`)
    const { text, entries } = parseXref(renderPdf('Long', many))
    expect(entries.length).toBe(7)
    const content = contentStream(text)
    expect(content).toContain("(line 0) '")
    expect(content).not.toContain("(line 199) '")
    expect(content).toMatch(/\(\[\d+ more lines not shown\]\) '/)
  })

  it('renders an empty body', () => {
    const { entries } = parseXref(renderPdf('Empty', []))
    expect(entries.length).toBe(7)
  })
})
