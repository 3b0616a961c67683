import {
  imageFileId,
  isAllowedImageSource,
  isAllowedInlineStyle,
  isAllowedLinkTarget,
} from '@dossierbase/core';
import type sanitizeHtml from 'sanitize-html';

/**
 * A sanitize-html transform for every tag: drops an image source, link target or style that core's
 * rules refuse (relative paths into the app, other sites, scripts), so showing the text never makes
 * a request on the reader's behalf. With `fileIds`, an image of a product file must also be one of
 * those files. It sees attribute values after entity decoding, as the browser will.
 */
export function keepAllowedAddresses(fileIds?: ReadonlySet<number>): sanitizeHtml.Transformer {
  return (tagName, attribs) => {
    const kept = { ...attribs };
    const src = kept.src;
    if (src !== undefined) {
      const fileId = imageFileId(src);
      const foreign = fileIds !== undefined && fileId !== null && !fileIds.has(fileId);
      if (!isAllowedImageSource(src) || foreign) delete kept.src;
    }
    if (kept.href !== undefined && !isAllowedLinkTarget(kept.href)) delete kept.href;
    if (kept.style !== undefined && !isAllowedInlineStyle(kept.style)) delete kept.style;
    return { tagName, attribs: kept };
  };
}

/** The product files whose images a sanitised text shows (its src attributes are double-quoted). */
export function imageFileIds(clean: string): number[] {
  const ids = [...clean.matchAll(/\ssrc="([^"]*)"/g)].map((match) => imageFileId(match[1] ?? ''));
  return [...new Set(ids.filter((id): id is number => id !== null))];
}
