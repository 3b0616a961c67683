import { Link } from '@mantine/tiptap';
import type { Extensions } from '@tiptap/core';
import { FontFamily, FontSize, TextStyle } from '@tiptap/extension-text-style';
import StarterKit from '@tiptap/starter-kit';
import { isAllowedRichTextLink, RICH_TEXT_LINK_PROTOCOLS } from './rich-text';

/**
 * The rich text editor's Tiptap extensions: only markup the core whitelist keeps (headings 1-4, lists,
 * quotes, code, links opening in a new tab, font size and family as span styles).
 */
export function richTextExtensions(): Extensions {
  return [
    StarterKit.configure({ link: false, heading: { levels: [1, 2, 3, 4] } }),
    Link.configure({
      openOnClick: false,
      autolink: true,
      protocols: [...RICH_TEXT_LINK_PROTOCOLS],
      defaultProtocol: 'https',
      isAllowedUri: (url) => isAllowedRichTextLink(url),
      HTMLAttributes: { rel: 'noopener noreferrer', target: '_blank' },
    }),
    TextStyle,
    FontSize,
    FontFamily,
  ];
}
