import { inflateSync } from 'node:zlib';
import jsQR from 'jsqr';

/**
 * What a camera reads from a QR code served as a file: an SVG's dark runs or a PNG's pixels, drawn
 * into an RGBA bitmap and handed to jsQR, as the soundbox test reads the one on its screen.
 */

/** A bitmap of `side`² modules, each `scale` pixels, dark where `dark(row, column)`. */
function bitmapOf(side: number, dark: (row: number, column: number) => boolean, scale = 4) {
  const pixelsSide = side * scale;
  const pixels = new Uint8ClampedArray(pixelsSide * pixelsSide * 4).fill(255);
  for (let y = 0; y < pixelsSide; y++) {
    for (let x = 0; x < pixelsSide; x++) {
      if (dark(Math.floor(y / scale), Math.floor(x / scale)))
        pixels.fill(0, (y * pixelsSide + x) * 4, (y * pixelsSide + x) * 4 + 3);
    }
  }
  return { pixels, side: pixelsSide };
}

/**
 * An SVG as the `qrcode` package draws it: a square viewBox and one path of horizontal runs
 * (`M x y` to a row's first run, `m dx 0` to the next, `h n` along a run). Answers the text it
 * encodes, or undefined when the SVG is not such a drawing or does not scan.
 */
export function decodeQrSvg(svg: string): string | undefined {
  const side = Number(/viewBox="0 0 (\d+) \1"/.exec(svg)?.[1]);
  const path = /<path [^>]*stroke="#000000"[^>]*d="([^"]+)"/.exec(svg)?.[1];
  if (!side || !path) return undefined;
  const dark = new Set<string>();
  let x = 0;
  let y = 0;
  for (const [, command, first, second] of path.matchAll(/([MmHh])(-?[\d.]+)(?: (-?[\d.]+))?/g)) {
    const a = Number(first);
    const b = Number(second ?? 0);
    if (command === 'M') [x, y] = [a, b];
    else if (command === 'm') [x, y] = [x + a, y + b];
    else {
      for (let column = x; column < x + a; column++) dark.add(`${Math.floor(y)},${column}`);
      x += a;
    }
  }
  const { pixels, side: pixelsSide } = bitmapOf(side, (row, column) => dark.has(`${row},${column}`));
  return jsQR(pixels, pixelsSide, pixelsSide)?.data;
}

const channelsOf: Record<number, number> = { 0: 1, 2: 3, 4: 2, 6: 4 };

/** The RGBA pixels of an 8-bit, non-interlaced PNG (grey or colour, with or without alpha). */
export function decodePng(png: Buffer): { width: number; height: number; pixels: Uint8ClampedArray } {
  if (png.subarray(0, 8).toString('hex') !== '89504e470d0a1a0a') throw new Error('not a PNG');
  let offset = 8;
  let width = 0;
  let height = 0;
  let colourType = 0;
  const data: Buffer[] = [];
  while (offset < png.length) {
    const length = png.readUInt32BE(offset);
    const type = png.subarray(offset + 4, offset + 8).toString('latin1');
    const body = png.subarray(offset + 8, offset + 8 + length);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      if (body[8] !== 8 || body[12] !== 0) throw new Error('only 8-bit, non-interlaced PNGs');
      colourType = body[9] as number;
    } else if (type === 'IDAT') data.push(body);
    offset += 12 + length;
  }
  const channels = channelsOf[colourType];
  if (!channels) throw new Error(`PNG colour type ${colourType} is not read here`);
  const raw = inflateSync(Buffer.concat(data));
  const stride = width * channels;
  const lines = new Uint8Array(stride * height);
  for (let row = 0; row < height; row++) {
    const filter = raw[row * (stride + 1)] as number;
    const line = raw.subarray(row * (stride + 1) + 1, (row + 1) * (stride + 1));
    for (let i = 0; i < stride; i++) {
      const left = i >= channels ? (lines[row * stride + i - channels] as number) : 0;
      const up = row > 0 ? (lines[(row - 1) * stride + i] as number) : 0;
      const upLeft = row > 0 && i >= channels ? (lines[(row - 1) * stride + i - channels] as number) : 0;
      const paeth = () => {
        const p = left + up - upLeft;
        const [pa, pb, pc] = [Math.abs(p - left), Math.abs(p - up), Math.abs(p - upLeft)];
        return pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft;
      };
      const predictor = [0, left, up, (left + up) >> 1, filter === 4 ? paeth() : 0][filter] ?? 0;
      lines[row * stride + i] = ((line[i] as number) + predictor) & 0xff;
    }
  }
  const pixels = new Uint8ClampedArray(width * height * 4);
  for (let i = 0; i < width * height; i++) {
    const source = lines.subarray(i * channels, (i + 1) * channels);
    const grey = channels <= 2;
    pixels[i * 4] = source[0] as number;
    pixels[i * 4 + 1] = (grey ? source[0] : source[1]) as number;
    pixels[i * 4 + 2] = (grey ? source[0] : source[2]) as number;
    pixels[i * 4 + 3] = channels === 2 || channels === 4 ? (source[channels - 1] as number) : 255;
  }
  return { width, height, pixels };
}

/** The text a PNG's QR code encodes, or undefined when it does not scan. */
export function decodeQrPng(png: Buffer): string | undefined {
  const { width, height, pixels } = decodePng(png);
  return jsQR(pixels, width, height)?.data;
}
