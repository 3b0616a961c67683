// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { informationMarkup } from './information-text';

const linkText = (id: number) => `dossier #${id}`;
const render = (html: string) => {
  const box = document.createElement('div');
  box.innerHTML = informationMarkup(html, linkText);
  return box;
};

describe('informationMarkup', () => {
  it('turns {dossier:N} tags into links that open the dossier page in a new window', () => {
    const box = render('<p>See {dossier:12} and <b>{dossier:7}</b>.</p>');
    const links = [...box.querySelectorAll('a')];
    expect(links.map((a) => [a.getAttribute('href'), a.target, a.rel, a.textContent])).toEqual([
      ['/contentdossier/12', '_blank', 'noopener', 'dossier #12'],
      ['/contentdossier/7', '_blank', 'noopener', 'dossier #7'],
    ]);
    expect(box.textContent).toBe('See dossier #12 and dossier #7.');
  });

  it('keeps only the contract tags and attributes', () => {
    const box = render(
      '<p style="color: red" onclick="x()">Hi <a href="https://evil.test">there</a><script>alert(1)</script><img src="x" onerror="alert(1)"></p>',
    );
    expect(box.querySelector('script')).toBeNull();
    expect(box.querySelector('a')).toBeNull();
    expect(box.querySelector('p')?.getAttribute('onclick')).toBeNull();
    expect(box.querySelector('p')?.getAttribute('style')).toBe('color: red');
    expect(box.querySelector('img')?.getAttribute('onerror')).toBeNull();
    expect(box.querySelector('img')?.hasAttribute('src')).toBe(false);
  });

  it('never builds a link from a tag inside an attribute or from markup around the number', () => {
    const box = render(
      '<p style="color: {dossier:3}">{dossier:0} {dossier:x} {dossier:4"><script>alert(1)</script>}</p>',
    );
    expect(box.querySelectorAll('a')).toHaveLength(0);
    expect(box.querySelector('script')).toBeNull();
  });
});
