import { inflateSync } from 'node:zlib';

/** A PNG's size and whether its pixels are all one colour: enough to tell a rendered page from a blank one. */
export function pngFacts(png: Buffer): { width: number; height: number; colours: number } {
  if (png.subarray(1, 4).toString('latin1') !== 'PNG') throw new Error('not a PNG');
  const width = png.readUInt32BE(16);
  const height = png.readUInt32BE(20);
  const bitDepth = png[24]!;
  const colourType = png[25]!;
  if (bitDepth !== 8 || (colourType !== 2 && colourType !== 6))
    throw new Error(`unsupported PNG ${bitDepth}/${colourType}`);
  const channels = colourType === 6 ? 4 : 3;
  const chunks: Buffer[] = [];
  for (let at = 8; at < png.length;) {
    const length = png.readUInt32BE(at);
    if (png.subarray(at + 4, at + 8).toString('latin1') === 'IDAT') chunks.push(png.subarray(at + 8, at + 8 + length));
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(chunks));
  const stride = width * channels;
  const previous = Buffer.alloc(stride);
  const seen = new Set<string>();
  for (let row = 0; row < height; row += 1) {
    const start = row * (stride + 1);
    const filter = raw[start]!;
    const line = Buffer.from(raw.subarray(start + 1, start + 1 + stride));
    unfilter(filter, line, previous, channels);
    line.copy(previous);
    // Sample every 7th pixel: a few thousand colours at most, enough to tell blank from drawn.
    for (let x = 0; x < width && seen.size < 64; x += 7)
      seen.add(line.subarray(x * channels, x * channels + 3).toString('hex'));
  }
  return { width, height, colours: seen.size };
}

function unfilter(filter: number, line: Buffer, up: Buffer, bpp: number): void {
  for (let i = 0; i < line.length; i += 1) {
    const left = i >= bpp ? line[i - bpp]! : 0;
    const above = up[i]!;
    const upperLeft = i >= bpp ? up[i - bpp]! : 0;
    let predictor = 0;
    if (filter === 1) predictor = left;
    else if (filter === 2) predictor = above;
    else if (filter === 3) predictor = (left + above) >> 1;
    else if (filter === 4) {
      const p = left + above - upperLeft;
      const [pa, pb, pc] = [Math.abs(p - left), Math.abs(p - above), Math.abs(p - upperLeft)];
      predictor = pa <= pb && pa <= pc ? left : pb <= pc ? above : upperLeft;
    }
    line[i] = (line[i]! + predictor) & 0xff;
  }
}
