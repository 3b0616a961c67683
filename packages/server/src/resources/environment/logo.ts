import { ENVIRONMENT_MESSAGES, MAX_LOGO_BYTES } from '@dossierbase/core';
import { badRequest } from '../../http-errors';

const SIGNATURES: { mime: string; bytes: number[] }[] = [
  { mime: 'image/png', bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
  { mime: 'image/jpeg', bytes: [0xff, 0xd8, 0xff] },
];

/** Decodes a data: URL logo; the bytes themselves must be PNG or JPEG, whatever the URL claims. */
export function decodeLogo(dataUrl: string): { bytes: Buffer; mime: string } {
  const match = /^data:image\/(png|jpe?g);base64,([A-Za-z0-9+/=\s]+)$/.exec(dataUrl);
  if (!match) throw badRequest({ image: ENVIRONMENT_MESSAGES.imageType });
  const bytes = Buffer.from(match[2], 'base64');
  if (bytes.length > MAX_LOGO_BYTES) throw badRequest({ image: 'The image may be at most 2 MB' });
  const signature = SIGNATURES.find((s) => s.bytes.every((byte, i) => bytes[i] === byte));
  if (!signature) throw badRequest({ image: ENVIRONMENT_MESSAGES.imageType });
  return { bytes, mime: signature.mime };
}
