import { AVATAR_SIZES, MAX_AVATAR_BYTES, PROFILE_MESSAGES } from '@dossierbase/core';
import { badRequest } from '../../http-errors';

// An uploaded picture becomes the avatar's two square WebP images. sharp decides what the bytes are
// (never the type the upload claims) and writes no metadata: camera, place and time stay behind.

/** Formats sharp reads that an avatar is made from (no SVG: its renderer reads more than pixels). */
const ACCEPTED_FORMATS = new Set(['png', 'jpeg', 'webp', 'gif']);
/** Decoding allocates by pixels, not by bytes: a small file can claim a huge canvas. */
const MAX_PIXELS = 40_000_000;
const WEBP_QUALITY = 82;

export interface AvatarImages {
  small: Buffer;
  large: Buffer;
}

const notAnImage = () => badRequest({ image: PROFILE_MESSAGES.avatarType });

/** The bytes of a data URL (its head checked by the route's schema). */
export function dataUrlBytes(dataUrl: string): Buffer {
  const comma = dataUrl.indexOf(',');
  const base64 = dataUrl.slice(comma + 1);
  if (comma < 0 || /[^A-Za-z0-9+/=\s]/.test(base64)) throw notAnImage();
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.length === 0) throw notAnImage();
  if (bytes.length > MAX_AVATAR_BYTES) throw badRequest({ image: PROFILE_MESSAGES.avatarSize });
  return bytes;
}

/** The picture cut to a square around its most interesting part, at 64 and 200 pixels, as WebP. */
export async function makeAvatarImages(bytes: Buffer): Promise<AvatarImages> {
  // loaded on first use: about 15 MB of the server's memory
  const { default: sharp } = await import('sharp');
  const metadata = await sharp(bytes)
    .metadata()
    .catch(() => null);
  if (!metadata?.format || !ACCEPTED_FORMATS.has(metadata.format)) throw notAnImage();
  if ((metadata.width ?? 0) * (metadata.height ?? 0) > MAX_PIXELS) {
    throw badRequest({ image: PROFILE_MESSAGES.avatarPixels });
  }
  // rotate() turns the picture as its EXIF orientation says, before the metadata is dropped.
  const source = sharp(bytes, { limitInputPixels: MAX_PIXELS }).rotate();
  try {
    const [small, large] = await Promise.all(
      AVATAR_SIZES.map((size) =>
        source
          .clone()
          .resize(size, size, { fit: 'cover', position: sharp.strategy.attention })
          .webp({ quality: WEBP_QUALITY })
          .toBuffer(),
      ),
    );
    return { small, large };
  } catch {
    // a header that reads but data that does not (a cut-off file)
    throw notAnImage();
  }
}
