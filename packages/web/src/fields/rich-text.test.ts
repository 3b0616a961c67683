// @vitest-environment jsdom
import { Editor } from '@tiptap/core';
import { afterEach, describe, expect, it } from 'vitest';
import { isAllowedRichTextLink, RICH_TEXT_FONT_SIZES, richTextOutput, sanitiseRichText } from './rich-text';
import { richTextExtensions } from './rich-text-extensions';

let editor: Editor | null = null;
afterEach(() => {
  editor?.destroy();
  editor = null;
});

function makeEditor(content: string) {
  editor = new Editor({ extensions: richTextExtensions(), content });
  return editor;
}

describe('sanitiseRichText', () => {
  it('keeps the whitelist and drops scripts, handlers and unknown tags', () => {
    const html =
      '<p onclick="x()">Hi <strong>bold</strong> <u>u</u> <span style="font-size: 12pt">big</span>' +
      '<script>alert(1)</script><iframe src="https://evil"></iframe><a href="javascript:alert(1)">x</a></p>';
    const clean = sanitiseRichText(html);
    expect(clean).toContain('<strong>bold</strong>');
    expect(clean).toContain('<u>u</u>');
    expect(clean).toContain('<span style="font-size: 12pt">big</span>');
    expect(clean).not.toMatch(/script|iframe|onclick|javascript:/);
  });

  it('list mode keeps fewer tags and never a style', () => {
    const clean = sanitiseRichText('<h1>T</h1><p><span style="color: red">r</span> <b>b</b></p>', true);
    expect(clean).toBe('T<p>r <b>b</b></p>');
  });
});

describe('rich text editor output', () => {
  it('bold, underline, a link and a font size survive the whitelist', () => {
    const e = makeEditor('<p>Hello world</p>');
    e.chain().selectAll().toggleBold().run();
    e.chain().setTextSelection({ from: 1, to: 6 }).setLink({ href: 'https://example.com' }).run();
    e.chain().setTextSelection({ from: 7, to: 12 }).toggleUnderline().setFontSize('14pt').run();
    const out = richTextOutput(e.getHTML());
    expect(out).toContain(
      '<a target="_blank" rel="noopener noreferrer" href="https://example.com"><strong>Hello</strong></a>',
    );
    expect(out).toContain('<span style="font-size: 14pt;"><strong><u>world</u></strong></span>');
    expect(out).toBe(sanitiseRichText(out)); // nothing left for the whitelist to remove
  });

  it('refuses javascript: links and keeps mailto', () => {
    const e = makeEditor('<p>Mail me</p>');
    e.chain().selectAll().setLink({ href: 'javascript:alert(1)' }).run();
    expect(richTextOutput(e.getHTML())).not.toContain('javascript');
    e.chain().selectAll().setLink({ href: 'mailto:a@b.nl' }).run();
    expect(richTextOutput(e.getHTML())).toContain('href="mailto:a@b.nl"');
  });

  it('pasted markup outside the whitelist never reaches the output', () => {
    const e = makeEditor(
      '<p>a</p><img src="x" onerror="alert(1)"><h6>six</h6><table><tr><td>c</td></tr></table>',
    );
    const out = richTextOutput(e.getHTML());
    expect(out).not.toMatch(/onerror|<h6/);
    expect(out).toContain('six');
  });

  it('an empty document is no value', () => {
    expect(richTextOutput(makeEditor('').getHTML())).toBe('');
    expect(richTextOutput('<p></p>')).toBe('');
  });
});

describe('rich text options', () => {
  it('offers 8 to 48 pt', () => {
    expect(RICH_TEXT_FONT_SIZES[0]).toBe('8pt');
    expect(RICH_TEXT_FONT_SIZES.at(-1)).toBe('48pt');
  });
  it('allows only http(s) and mailto links', () => {
    expect(isAllowedRichTextLink('https://a.nl')).toBe(true);
    expect(isAllowedRichTextLink('mailto:x@y.z')).toBe(true);
    expect(isAllowedRichTextLink('javascript:alert(1)')).toBe(false);
    expect(isAllowedRichTextLink('data:text/html,x')).toBe(false);
  });
});
