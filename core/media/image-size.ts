/** Width and height from the first bytes of a PNG, GIF or JPEG (no decoding); null when unknown. */
export function imageSize(head: Buffer, mime: string): { width: number; height: number } | null {
  if (mime === 'image/png') {
    if (head.length < 24 || head.readUInt32BE(0) !== 0x89504e47 || head.toString('latin1', 12, 16) !== 'IHDR') return null;
    return positive(head.readUInt32BE(16), head.readUInt32BE(20));
  }
  if (mime === 'image/gif') {
    if (head.length < 10 || !head.toString('latin1', 0, 4).startsWith('GIF8')) return null;
    return positive(head.readUInt16LE(6), head.readUInt16LE(8));
  }
  if (mime === 'image/jpeg') {
    if (head.length < 4 || head[0] !== 0xff || head[1] !== 0xd8) return null;
    let at = 2;
    while (at + 9 < head.length) {
      if (head[at] !== 0xff) return null;
      const marker = head[at + 1]!;
      if (marker === 0xff) {
        at++;
        continue;
      }
      if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
        at += 2;
        continue;
      }
      const length = head.readUInt16BE(at + 2);
      // SOF0..SOF15, except DHT (C4), JPG (C8) and DAC (CC).
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
        return positive(head.readUInt16BE(at + 7), head.readUInt16BE(at + 5));
      }
      if (length < 2) return null;
      at += 2 + length;
    }
  }
  return null;
}

function positive(width: number, height: number): { width: number; height: number } | null {
  return width > 0 && height > 0 ? { width, height } : null;
}
