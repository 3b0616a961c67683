import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { type Catalogue, catalogueEntries } from '@dossierbase/core';
import { parseSync, Visitor } from 'oxc-parser';
import { describe, expect, it } from 'vitest';
import de from './de.json';
import en from './en.json';
import es from './es.json';
import fr from './fr.json';
import nl from './nl.json';
import ru from './ru.json';
import sameAsEnglish from './same-as-english.json';

const flatKeys = (tree: Catalogue) => catalogueEntries(tree).map(([key]) => key);

const languages: Record<string, Catalogue> = { en, nl, es, fr, de, ru };
const enKeys = flatKeys(en).sort();

describe('translations', () => {
  it.each(Object.keys(languages))('%s has exactly the keys of en', (language) => {
    expect(flatKeys(languages[language]).sort()).toEqual(enKeys);
  });

  // A value written as in English is a string nobody translated, unless it is listed as the same in
  // that language (names, formats, words the language shares: same-as-english.json).
  it.each(Object.keys(sameAsEnglish))(
    '%s translates every text it does not share with English',
    (language) => {
      const english = new Map(catalogueEntries(en));
      const untranslated = catalogueEntries(languages[language])
        .filter(([key, value]) => english.get(key) === value)
        .map(([key]) => key)
        .filter((key) => !(sameAsEnglish as Record<string, string[]>)[language].includes(key));
      expect(untranslated).toEqual([]);
    },
  );

  it('has no empty values', () => {
    for (const [language, tree] of Object.entries(languages)) {
      const empty = flatKeys(tree).filter((key) => {
        const value = key
          .split('.')
          .reduce<string | Catalogue>((node, part) => (node as Catalogue)[part], tree);
        return typeof value !== 'string' || value.trim() === '';
      });
      expect(empty, language).toEqual([]);
    }
  });

  it('defines every literal key the source uses', () => {
    const files = sourceFiles();
    const used = new Set<string>();
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      for (const match of text.matchAll(/\bt\(\s*'([^'$]+)'/g)) used.add(match[1]);
      for (const match of text.matchAll(/:\s*'((?:[a-z_0-9]+\.)+[a-z_0-9]+)',?$/gm)) used.add(match[1]);
    }
    const known = new Set(enKeys);
    expect([...used].filter((key) => !known.has(key))).toEqual([]);
  });
});

/** The web client's source files, tests left out. */
function sourceFiles(): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name)) files.push(path);
    }
  };
  walk(join(import.meta.dirname, '..'));
  return files;
}

// Props whose text a user reads or hears.
const TEXT_PROPS = new Set(['label', 'title', 'placeholder', 'aria-label', 'alt', 'description']);
// Text that is the same in every language: formats a user types by.
const LANGUAGE_FREE = /^(DD-MM-YYYY|HH:mm|[^A-Za-zÀ-ÿ]*)$/;

describe('visible text', () => {
  it('comes from the catalogues: no words written into JSX or into text props', () => {
    const literals: string[] = [];
    for (const file of sourceFiles().filter((f) => f.endsWith('.tsx'))) {
      const { program, errors } = parseSync(file, readFileSync(file, 'utf8'), { lang: 'tsx' });
      expect(errors, file).toEqual([]);
      new Visitor({
        JSXText(node) {
          if (!LANGUAGE_FREE.test(node.value.trim())) literals.push(`${file}: ${node.value.trim()}`);
        },
        JSXAttribute(node) {
          const { name, value } = node;
          if (
            name.type === 'JSXIdentifier' &&
            TEXT_PROPS.has(name.name) &&
            value?.type === 'Literal' &&
            typeof value.value === 'string' &&
            !LANGUAGE_FREE.test(value.value)
          )
            literals.push(`${file}: ${name.name}="${value.value}"`);
        },
      }).visit(program);
    }
    expect(literals).toEqual([]);
  });
});
