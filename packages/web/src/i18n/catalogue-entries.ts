export type Catalogue = { [key: string]: string | Catalogue };

/** A catalogue's texts as [dotted key, text] pairs, in the catalogue's order. */
export function catalogueEntries(tree: Catalogue, prefix = ''): [string, string][] {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'string'
      ? [[`${prefix}${key}`, value] as [string, string]]
      : catalogueEntries(value, `${prefix}${key}.`),
  );
}
