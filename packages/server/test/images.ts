import sharp from 'sharp';

/** A picture of two colours side by side, as PNG (or another format sharp writes). */
export function picture(
  width: number,
  height: number,
  format: 'png' | 'jpeg' | 'gif' | 'webp' = 'png',
): Promise<Buffer> {
  const half = Math.max(1, Math.floor(width / 2));
  return sharp({ create: { width, height, channels: 3, background: '#1c7ed6' } })
    .composite([
      {
        input: { create: { width: half, height, channels: 3, background: '#f59f00' } },
        left: 0,
        top: 0,
      },
    ])
    .toFormat(format)
    .toBuffer();
}

export const dataUrl = (mime: string, bytes: Buffer) => `data:${mime};base64,${bytes.toString('base64')}`;
