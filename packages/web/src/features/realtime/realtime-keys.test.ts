import { describe, expect, it } from 'vitest';
import { dossierKeys } from '../dossiers/dossier-api';
import { dossierListKeys } from '../dossiers/list/list-api';
import { emptyBatch, isDossierKeyOf, isEmbeddedListKey, isRowsKeyOf, staleAfter } from './realtime-keys';

describe('the reads an event makes stale', () => {
  it("an entity's lists and embedded lists, not its layout, permissions or option labels", () => {
    const entities = new Set([7]);
    expect(isRowsKeyOf(dossierListKeys.list(7, 'defDossier=7&page=0'), entities)).toBe(true);
    expect(isRowsKeyOf(dossierListKeys.list(7, 'embedded=3&linkId=4'), entities)).toBe(true);
    expect(isRowsKeyOf(dossierListKeys.list(8, 'defDossier=8'), entities)).toBe(false);
    expect(isRowsKeyOf(dossierListKeys.items(7, 'list'), entities)).toBe(false);
    expect(isRowsKeyOf(dossierListKeys.abilities(7), entities)).toBe(false);
    expect(isRowsKeyOf(dossierListKeys.tabs(7, [1, 2]), entities)).toBe(true);
  });

  it('the open dossiers among the written ones, at any position, and the favourites', () => {
    const dossiers = new Set([5]);
    expect(isDossierKeyOf(dossierKeys.detail(5, null), dossiers)).toBe(true);
    expect(isDossierKeyOf(dossierKeys.detail(5, 12), dossiers)).toBe(true);
    expect(isDossierKeyOf(dossierKeys.detail(6, null), dossiers)).toBe(false);
    expect(isDossierKeyOf(dossierKeys.layout(5), dossiers)).toBe(false);
    expect(isDossierKeyOf(['dossier', 'favourites', { page: 0 }], dossiers)).toBe(true);
  });

  it('a written link makes every embedded list stale, not the plain lists', () => {
    expect(isEmbeddedListKey(dossierListKeys.list(7, 'embedded=3&linkId=4'))).toBe(true);
    expect(isEmbeddedListKey(dossierListKeys.list(7, 'page=0&embedded=3'))).toBe(true);
    expect(isEmbeddedListKey(dossierListKeys.list(7, 'defDossier=7'))).toBe(false);
    const batch = { ...emptyBatch(), embedded: true };
    expect(staleAfter(batch)(dossierListKeys.list(9, 'embedded=1&linkId=2'))).toBe(true);
    expect(staleAfter(batch)(dossierListKeys.list(9, 'defDossier=9'))).toBe(false);
  });
});
