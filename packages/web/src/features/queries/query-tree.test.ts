import { queryDocumentSchema } from '@dossierbase/core';
import { describe, expect, it } from 'vitest';
import {
  incompletePaths,
  messagesAt,
  moveEntry,
  newCombinator,
  newField,
  newLink,
  toDocument,
  toDraft,
} from './query-tree';

describe('the query editor document', () => {
  it('gives every group a uuid and keeps the stored one', () => {
    const draft = toDraft({
      combinators: [
        {
          uuid: 'kept',
          combine: 'OR',
          fields: [{ id: 4, type: 'string_empty', value: null }],
          links: [{ id: 9, combinators: [{ combine: 'AND', fields: [], links: [], combinators: [] }] }],
          combinators: [],
        },
      ],
      include_archived: 'both',
    });
    expect(draft.combinators[0].uuid).toBe('kept');
    expect(draft.combinators[0].links[0].combinators[0].uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(draft.include_archived).toBe('both');
  });

  it('sends only complete conditions, and the core schema accepts what it sends', () => {
    const group = newCombinator('OR');
    group.fields = [{ id: 4, type: 'string_like_equals', value: 'Ann' }, newField()];
    const link = { ...newLink(), id: 9, where_min: 1, where_other_type: 'IN' as const };
    group.links = [link, newLink()];
    const document = toDocument({ combinators: [group], include_archived: 'none_archived' });
    expect(document.combinators[0].fields).toEqual([{ id: 4, type: 'string_like_equals', value: 'Ann' }]);
    // an IN without its query is left out until the query is chosen
    expect(document.combinators[0].links).toEqual([{ id: 9, combinators: [], where_min: 1 }]);
    expect(queryDocumentSchema.safeParse(document).success).toBe(true);
  });

  it('names the incomplete conditions by the paths the server uses', () => {
    const inner = newCombinator();
    inner.fields = [newField()];
    const group = newCombinator();
    group.links = [{ ...newLink(), id: 3, combinators: [inner] }, newLink()];
    expect(incompletePaths({ combinators: [group], include_archived: 'both' })).toEqual([
      'data.combinators.0.links.0.combinators.0.fields.0',
      'data.combinators.0.links.1',
    ]);
  });

  it("finds a condition's messages by its path and by its field id, not those of nested conditions", () => {
    const errors = {
      'data.combinators.0.fields.1.value': 'Enter a valid value',
      'data.combinators.0.links.0.combinators.0.fields.0': 'deeper',
      'data.12': 'Item not found',
    };
    expect(messagesAt(errors, 'data.combinators.0.fields.1', 12)).toEqual([
      'Enter a valid value',
      'Item not found',
    ]);
    expect(messagesAt(errors, 'data.combinators.0.links.0', 5)).toEqual([]);
  });

  it('moves a group', () => {
    expect(moveEntry(['a', 'b', 'c'], 0, 2)).toEqual(['b', 'c', 'a']);
    expect(moveEntry(['a', 'b', 'c'], 2, 0)).toEqual(['c', 'a', 'b']);
  });
});
