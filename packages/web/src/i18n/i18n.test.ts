import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import de from './de.json';
import en from './en.json';
import es from './es.json';
import fr from './fr.json';
import nl from './nl.json';
import ru from './ru.json';

type Tree = { [key: string]: string | Tree };

function flatKeys(tree: Tree, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'string' ? [`${prefix}${key}`] : flatKeys(value, `${prefix}${key}.`),
  );
}

const languages: Record<string, Tree> = { en, nl, es, fr, de, ru };
const enKeys = flatKeys(en).sort();

describe('translations', () => {
  it.each(Object.keys(languages))('%s has exactly the keys of en', (language) => {
    expect(flatKeys(languages[language]).sort()).toEqual(enKeys);
  });

  it('has no empty values', () => {
    for (const [language, tree] of Object.entries(languages)) {
      const empty = flatKeys(tree).filter((key) => {
        const value = key.split('.').reduce<string | Tree>((node, part) => (node as Tree)[part], tree);
        return typeof value !== 'string' || value.trim() === '';
      });
      expect(empty, language).toEqual([]);
    }
  });

  it('defines every literal key the source uses', () => {
    const sourceDir = join(import.meta.dirname, '..');
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (/\.tsx?$/.test(name) && !name.endsWith('.test.ts')) files.push(path);
      }
    };
    walk(sourceDir);
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
