// The interface texts' catalogues (packages/web/src/i18n/<language>.json): nested objects of texts.

export type Catalogue = { [key: string]: string | Catalogue };

/** The languages the interface has a catalogue of. */
export const CATALOGUE_LANGUAGES = ['en', 'nl', 'de', 'fr', 'es', 'ru'] as const;

/** A catalogue's texts as [dotted key, text] pairs, in the catalogue's order. */
export function catalogueEntries(tree: Catalogue, prefix = ''): [string, string][] {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'string'
      ? [[`${prefix}${key}`, value] as [string, string]]
      : catalogueEntries(value, `${prefix}${key}.`),
  );
}
