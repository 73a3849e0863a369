// The cash-in QR image (interface §4.6: `qrCodeImage`, a base64 image data URI, present when
// `generateQrCode` is true), encoding the same EMV copy-and-paste code as `pixCode`.
import QRCode from 'qrcode'

/** Resolves to `data:image/png;base64,…`; rejects when the text is empty or too long for a QR code. */
export function qrPngDataUri(text: string): Promise<string> {
  return QRCode.toDataURL(text, { type: 'image/png', errorCorrectionLevel: 'M', margin: 4 })
}
