// The bank-slip PDF behind `pdfAccessUrl` (interface §4.16): a real, minimal PDF 1.4 written by
// hand — catalog, pages, one A4 page, the standard Helvetica font, one content stream with the
// text, a cross-reference table with exact byte offsets, trailer, startxref and %%EOF.
// The whole file is Latin-1, so one character is one byte and offsets are string lengths.

const PAGE_WIDTH = 595
const PAGE_HEIGHT = 842
const MARGIN = 50
const TITLE_SIZE = 16
const TEXT_SIZE = 11
const LEADING = 15
/** Lines that fit under the title; the page is single, so the rest is summarised in one last line. */
const MAX_LINES = Math.floor((PAGE_HEIGHT - 2 * MARGIN - 2 * TITLE_SIZE) / LEADING)

export function renderPdf(title: string, lines: string[]): Buffer {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${PAGE_WIDTH} ${PAGE_HEIGHT}] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    streamObject(pageContent(title, lines)),
    `<< /Title ${pdfString(title)} /Producer (pix-conformance-kit reference) >>`,
  ]
  return Buffer.from(assemble(objects, { root: 1, info: 6 }), 'latin1')
}

function pageContent(title: string, lines: string[]): string {
  const shown = fitToPage(lines)
  const ops = ['BT', `/F1 ${TITLE_SIZE} Tf`, `${MARGIN} ${PAGE_HEIGHT - MARGIN - TITLE_SIZE} Td`, `${pdfString(title)} Tj`]
  ops.push(`/F1 ${TEXT_SIZE} Tf`, `${LEADING} TL`, `0 ${-TITLE_SIZE} Td`)
  for (const line of shown) ops.push(`${pdfString(line)} '`)
  ops.push('ET')
  return ops.join('\n')
}

function fitToPage(lines: string[]): string[] {
  if (lines.length <= MAX_LINES) return lines
  const kept = lines.slice(0, MAX_LINES - 1)
  return [...kept, `[${lines.length - kept.length} more lines not shown]`]
}

function streamObject(content: string): string {
  return `<< /Length ${content.length} >>\nstream\n${content}\nendstream`
}

/** Numbers objects from 1, records each one's byte offset, then writes xref and trailer. */
function assemble(objects: string[], refs: { root: number; info: number }): string {
  let out = '%PDF-1.4\n%\xE2\xE3\xCF\xD3\n' // the second line marks the file as binary for transfer tools
  const offsets: number[] = []
  objects.forEach((body, i) => {
    offsets.push(out.length)
    out += `${i + 1} 0 obj\n${body}\nendobj\n`
  })
  const xrefOffset = out.length
  out += `xref\n0 ${objects.length + 1}\n`
  out += '0000000000 65535 f \n' // each entry is exactly 20 bytes, ending in space + LF
  for (const offset of offsets) out += `${String(offset).padStart(10, '0')} 00000 n \n`
  out += `trailer\n<< /Size ${objects.length + 1} /Root ${refs.root} 0 R /Info ${refs.info} 0 R >>\n`
  out += `startxref\n${xrefOffset}\n%%EOF\n`
  return out
}

/** A literal string: Latin-1 only (anything else becomes '?'), line breaks as spaces, ( ) \ escaped. */
function pdfString(text: string): string {
  const latin1 = Array.from(text, (ch) => {
    const code = ch.codePointAt(0) ?? 0x3f
    if (code < 0x20 || code === 0x7f) return ' '
    if (code > 0xff || (code >= 0x80 && code < 0xa0)) return '?'
    return ch
  }).join('')
  return `(${latin1.replace(/[\\()]/g, (c) => `\\${c}`)})`
}
