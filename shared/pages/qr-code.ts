import QRCode from 'qrcode';
import { escapeHtml, type SafeHtml, trustedHtml } from '#shared/pages/html.ts';

/**
 * A payment link's QR code, drawn on the server: as SVG (inline on a page, or a file a printer
 * scales without blur) and as PNG (what chat apps and phones' galleries take). Error correction
 * `M` (15 %), as printed shop stickers use: a scuffed corner still scans.
 */
const options = { errorCorrectionLevel: 'M', margin: 4 } as const;

export const qrSvg = (text: string, sidePixels?: number): Promise<string> =>
  QRCode.toString(text, { ...options, type: 'svg', ...(sidePixels ? { width: sidePixels } : {}) });

export const qrPng = (text: string): Promise<Buffer> =>
  QRCode.toBuffer(text, { ...options, type: 'png', width: 600 });

/** The SVG inline in a page, named for assistive technology. */
export async function inlineQr(text: string, label: string, sidePixels: number): Promise<SafeHtml> {
  const svg = (await qrSvg(text, sidePixels)).trim();
  return trustedHtml(svg.replace(/^<svg /, `<svg role="img" aria-label="${escapeHtml(label)}" `));
}
