import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import {
  arbCnpj,
  arbCpf,
  arbInvalidCnpj,
  arbInvalidCpf,
  arbMalformedCnpj,
  arbMalformedCpf,
  cnpjCheckDigits,
  cpfCheckDigits,
  formatCnpj,
  formatCpf,
  isMaskOf,
  isValidCnpj,
  isValidCnpjDigits,
  isValidCpf,
  isValidCpfDigits,
  maskDocument,
  randomCnpj,
  randomCpf,
} from '../../../generators/documents.ts'

describe('CPF check digits (published vectors)', () => {
  it.each(['529.982.247-25', '111.444.777-35', '52998224725', '11144477735', '39053344705'])('%s is valid', (cpf) => {
    expect(isValidCpf(cpf)).toBe(true)
  })

  it('computes the check digits of known CPFs', () => {
    expect(cpfCheckDigits('529982247')).toBe('25')
    expect(cpfCheckDigits('111444777')).toBe('35')
  })

  it.each([
    ['529.982.247-24', 'wrong second digit'],
    ['529.982.247-15', 'wrong first digit'],
    ['111.111.111-11', 'repeated digits'],
    ['00000000000', 'repeated zeros'],
    ['99999999999', 'repeated nines'],
    ['5299822472', 'ten digits'],
    ['529982247255', 'twelve digits'],
    ['529.982.24725', 'half formatted'],
    ['529-982-247.25', 'wrong separators'],
    ['', 'empty'],
  ])('%s is invalid (%s)', (cpf) => {
    expect(isValidCpf(cpf)).toBe(false)
  })
})

describe('CNPJ check digits (published vectors)', () => {
  it.each(['11.222.333/0001-81', '11.444.777/0001-61', '11222333000181', '11444777000161'])('%s is valid', (cnpj) => {
    expect(isValidCnpj(cnpj)).toBe(true)
  })

  it('computes the check digits of known CNPJs', () => {
    expect(cnpjCheckDigits('112223330001')).toBe('81')
    expect(cnpjCheckDigits('114447770001')).toBe('61')
  })

  it.each([
    ['11.222.333/0001-80', 'wrong second digit'],
    ['11.222.333/0001-91', 'wrong first digit'],
    ['00000000000000', 'repeated zeros'],
    ['11111111111111', 'repeated ones'],
    ['1122233300018', 'thirteen digits'],
    ['11.222.333.0001-81', 'wrong separator'],
  ])('%s is invalid (%s)', (cnpj) => {
    expect(isValidCnpj(cnpj)).toBe(false)
  })

  it('a CPF is not a CNPJ and vice versa', () => {
    expect(isValidCnpj('52998224725')).toBe(false)
    expect(isValidCpf('11222333000181')).toBe(false)
  })
})

describe('formatting', () => {
  it('formats CPF and CNPJ', () => {
    expect(formatCpf('52998224725')).toBe('529.982.247-25')
    expect(formatCnpj('11222333000181')).toBe('11.222.333/0001-81')
    expect(formatCpf('529.982.247-25')).toBe('529.982.247-25')
  })

  it('refuses the wrong length', () => {
    expect(() => formatCpf('123')).toThrow()
    expect(() => formatCnpj('52998224725')).toThrow()
  })
})

describe('§2.2 masking', () => {
  it('masks a CPF: first three and last two digits hidden', () => {
    expect(maskDocument('529.982.247-25')).toBe('***.982.247-**')
    expect(maskDocument('52998224725')).toBe('***.982.247-**')
  })

  it('masks a CNPJ: **.NNN.NNN/****-**', () => {
    expect(maskDocument('11.222.333/0001-81')).toBe('**.222.333/****-**')
    expect(maskDocument('11222333000181')).toBe('**.222.333/****-**')
  })

  it('refuses shapes that are neither document', () => {
    expect(() => maskDocument('1234')).toThrow()
    expect(() => maskDocument('***.982.247-**')).toThrow()
  })

  it('isMaskOf is exact', () => {
    expect(isMaskOf('***.982.247-**', '52998224725')).toBe(true)
    expect(isMaskOf('***.982.247-**', '529.982.247-25')).toBe(true)
    expect(isMaskOf('**.222.333/****-**', '11222333000181')).toBe(true)
    expect(isMaskOf('529.982.247-25', '52998224725')).toBe(false) // not masked
    expect(isMaskOf('***.982.247-25', '52998224725')).toBe(false) // check digits shown
    expect(isMaskOf('***.***.247-**', '52998224725')).toBe(false) // too much hidden
    expect(isMaskOf('***982247**', '52998224725')).toBe(false) // unformatted
    expect(isMaskOf('***.982.248-**', '52998224725')).toBe(false) // another document
    expect(isMaskOf('***.982.247-**', 'not a document')).toBe(false)
  })

  it('keeps exactly CPF digits 4–9 in place (property)', () => {
    fc.assert(
      fc.property(arbCpf(), (cpf) => {
        const masked = maskDocument(cpf)
        expect(masked).toMatch(/^\*\*\*\.\d{3}\.\d{3}-\*\*$/)
        expect(masked.replace(/\D/g, '')).toBe(cpf.slice(3, 9))
        // position by position against the formatted document
        const formatted = formatCpf(cpf)
        for (let i = 0; i < formatted.length; i++) {
          const hidden = i < 3 || i >= 12
          expect(masked[i]).toBe(hidden ? '*' : formatted[i])
        }
      }),
    )
  })

  it('keeps exactly CNPJ digits 3–8 in place (property)', () => {
    fc.assert(
      fc.property(arbCnpj(), (cnpj) => {
        const masked = maskDocument(cnpj)
        expect(masked).toMatch(/^\*\*\.\d{3}\.\d{3}\/\*\*\*\*-\*\*$/)
        expect(masked.replace(/\D/g, '')).toBe(cnpj.slice(2, 8))
        expect(isMaskOf(masked, cnpj)).toBe(true)
      }),
    )
  })
})

describe('arbitraries and random documents', () => {
  it('every arbCpf / arbCnpj value is valid and digits only', () => {
    fc.assert(fc.property(arbCpf(), (cpf) => /^\d{11}$/.test(cpf) && isValidCpf(cpf)))
    fc.assert(fc.property(arbCnpj(), (cnpj) => /^\d{14}$/.test(cnpj) && isValidCnpj(cnpj)))
  })

  it('every arbInvalidCpf / arbInvalidCnpj value has the right length and is invalid', () => {
    fc.assert(fc.property(arbInvalidCpf(), (cpf) => /^\d{11}$/.test(cpf) && !isValidCpf(cpf)))
    fc.assert(fc.property(arbInvalidCnpj(), (cnpj) => /^\d{14}$/.test(cnpj) && !isValidCnpj(cnpj)))
  })

  it('the invalid arbitraries include repeated-digit sequences', () => {
    const samples = fc.sample(arbInvalidCpf(), { numRuns: 500, seed: 1 })
    expect(samples.some((s) => /^(\d)\1{10}$/.test(s))).toBe(true)
  })

  it('randomCpf / randomCnpj are valid, with Math.random or a given generator', () => {
    for (let i = 0; i < 200; i++) {
      expect(isValidCpf(randomCpf())).toBe(true)
      expect(isValidCnpj(randomCnpj())).toBe(true)
    }
    let x = 0.123
    const rng = () => (x = (x * 9301 + 0.49297) % 1)
    expect(isValidCpf(randomCpf(rng))).toBe(true)
    expect(isValidCnpj(randomCnpj(rng))).toBe(true)
  })

  // Mod 11 with remainders 0 and 1 both giving 0 does not catch every single-digit change in the
  // body (63050101105 -> 53050101105 stays valid), so the property is stated on the check digits.
  it('changing either check digit of a valid document invalidates it (property)', () => {
    fc.assert(
      fc.property(arbCpf(), arbCnpj(), fc.integer({ min: 0, max: 1 }), fc.integer({ min: 1, max: 9 }), (cpf, cnpj, which, delta) => {
        const change = (doc: string, pos: number) => doc.slice(0, pos) + ((Number(doc[pos]) + delta) % 10) + doc.slice(pos + 1)
        expect(isValidCpf(change(cpf, 9 + which))).toBe(false)
        expect(isValidCnpj(change(cnpj, 12 + which))).toBe(false)
      }),
    )
  })

  it('a body change the mod-11 rule cannot see is still a valid document', () => {
    expect(isValidCpf('63050101105')).toBe(true)
    expect(isValidCpf('53050101105')).toBe(true)
  })
})

describe('malformed documents', () => {
  it('arbMalformedCpf / arbMalformedCnpj are never exactly 11 / 14 digits', () => {
    fc.assert(fc.property(arbMalformedCpf(), (s) => !/^\d{11}$/.test(s)))
    fc.assert(fc.property(arbMalformedCnpj(), (s) => !/^\d{14}$/.test(s)))
  })
})

describe('the digits form only (§2.4 devedor.cpf / devedor.cnpj)', () => {
  it('isValidCpfDigits takes 11 digits with right check digits, not the formatted form', () => {
    expect(isValidCpfDigits('52998224725')).toBe(true)
    expect(isValidCpfDigits('529.982.247-25')).toBe(false)
    expect(isValidCpfDigits('52998224726')).toBe(false)
    expect(isValidCpfDigits('11111111111')).toBe(false)
  })

  it('isValidCnpjDigits takes 14 digits with right check digits, not the formatted form', () => {
    expect(isValidCnpjDigits('11222333000181')).toBe(true)
    expect(isValidCnpjDigits('11.222.333/0001-81')).toBe(false)
    expect(isValidCnpjDigits('11222333000182')).toBe(false)
  })

  it('agree with isValidCpf / isValidCnpj on digit strings', () => {
    fc.assert(fc.property(fc.stringMatching(/^\d{11}$/), (s) => isValidCpfDigits(s) === isValidCpf(s)))
    fc.assert(fc.property(fc.stringMatching(/^\d{14}$/), (s) => isValidCnpjDigits(s) === isValidCnpj(s)))
  })
})
