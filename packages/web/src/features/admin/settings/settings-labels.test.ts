import {
  ARCHIVE_CASCADE_RULES,
  CASCADE_RULES,
  DISPLAY_VIEWS,
  DOSSIER_DATA_KEYS,
  deadlineReminderSchema,
  FIELD_TYPE_NAMES,
  PERMISSION_ACTIONS,
} from '@dossierbase/core';
import { describe, expect, it } from 'vitest';
import de from '../../../i18n/de.json';
import en from '../../../i18n/en.json';
import es from '../../../i18n/es.json';
import fr from '../../../i18n/fr.json';
import nl from '../../../i18n/nl.json';
import ru from '../../../i18n/ru.json';
import { DISPLAY_ITEM_SETTINGS, enumValues, settingControl, settingsShape } from './setting-controls';

type Tree = { [key: string]: string | Tree };
const catalogues: Record<string, Tree> = { en, nl, de, fr, es, ru };

/** The keys missing from any of the six catalogues, as "language: key". */
function missing(keys: readonly string[]): string[] {
  return Object.entries(catalogues).flatMap(([language, tree]) =>
    keys
      .filter((key) => {
        const value = key
          .split('.')
          .reduce<string | Tree | undefined>(
            (node, part) => (typeof node === 'object' ? node[part] : undefined),
            tree,
          );
        return typeof value !== 'string' || value.trim() === '';
      })
      .map((key) => `${language}: ${key}`),
  );
}

/** String settings that are free text by nature; any other string setting needs a picker. */
const FREE_TEXT = ['regex', 'prefix', 'formula'];

/** Settings that point at what the product lacks yet (blocks, reports, events, templates). */
const AWAITING = ['block', 'event_id', 'kedocx', 'report'];

const every = FIELD_TYPE_NAMES.flatMap((type) => settingsShape(type).map((shape) => ({ type, ...shape })));

describe('admin labels and setting controls', () => {
  it('names every field type in the six languages', () => {
    expect(missing(FIELD_TYPE_NAMES.map((type) => `admin.field_types.${type}`))).toEqual([]);
  });

  it('gives every setting of every type a control that is no raw text or JSON box', () => {
    const unknown = every.filter(({ control }) => control.kind === 'unknown');
    expect(unknown.map(({ type, key }) => `${type}.${key}`)).toEqual([]);
    const textBoxes = every.filter(({ control }) => control.kind === 'text').map(({ key }) => key);
    expect([...new Set(textBoxes)].filter((key) => !FREE_TEXT.includes(key))).toEqual([]);
    const awaiting = [
      ...every,
      ...Object.entries(DISPLAY_ITEM_SETTINGS).map(([key, control]) => ({ key, control })),
    ]
      .filter(({ control }) => control.kind === 'awaiting')
      .map(({ key }) => key);
    expect([...new Set(awaiting)].sort()).toEqual(AWAITING);
  });

  it('labels every setting and every value a setting offers in the six languages', () => {
    const keys = new Set<string>();
    for (const { key, control } of [
      ...every,
      ...Object.entries(DISPLAY_ITEM_SETTINGS).map(([key, control]) => ({ key, control })),
    ]) {
      if (control.kind === 'awaiting') continue;
      keys.add(`admin.settings.labels.${key}`);
      if (control.kind === 'choice' || control.kind === 'choices') {
        for (const option of control.options) keys.add(`admin.settings.options.${control.group}.${option}`);
      }
    }
    for (const unit of enumValues(deadlineReminderSchema.shape.type) ?? []) {
      keys.add(`admin.settings.options.deadline_unit.${unit}`);
    }
    for (const when of enumValues(deadlineReminderSchema.shape.when) ?? []) {
      keys.add(`admin.settings.options.deadline_when.${when}`);
    }
    for (const direction of ['ASC', 'DESC']) keys.add(`admin.settings.options.sort_direction.${direction}`);
    expect(missing([...keys])).toEqual([]);
  });

  it('labels views, dossier data, cascade rules and permission actions in the six languages', () => {
    expect(
      missing([
        ...DISPLAY_VIEWS.map((view) => `admin.views.${view}`),
        ...DOSSIER_DATA_KEYS.map((key) => `admin.settings.options.dossier_data.${key}`),
        ...CASCADE_RULES.map((rule) => `admin.link.cascade_rules.${rule}`),
        ...ARCHIVE_CASCADE_RULES.map((rule) => `admin.link.archive_cascade_rules.${rule || 'none'}`),
        ...PERMISSION_ACTIONS.map((action) => `admin.permission_actions.${action}`),
      ]),
    ).toEqual([]);
  });

  it('reads simple controls from the schema and structured ones by key', () => {
    const amount = Object.fromEntries(settingsShape('amount').map((s) => [s.key, s.control.kind]));
    expect(amount).toMatchObject({ valueType: 'choice', decimals: 'number', currency: 'currency' });
    const date = Object.fromEntries(settingsShape('date').map((s) => [s.key, s.control.kind]));
    expect(date).toMatchObject({ restrict_days: 'weekdays', deadline: 'deadlines', restriction: 'choice' });
    const link = Object.fromEntries(settingsShape('link').map((s) => [s.key, s.control]));
    expect(link.sort).toEqual({ kind: 'sort', of: 'child' });
    // saved queries of the link's child entity: by id, and by uuid for the picker's restriction
    expect(link.default_val_dos_query).toEqual({ kind: 'query', of: 'child', by: 'id' });
    expect(link.limit_output_to_mis_item).toEqual({ kind: 'query', of: 'child', by: 'uuid' });
    expect(DISPLAY_ITEM_SETTINGS.condition_query).toEqual({ kind: 'query', of: 'entity', by: 'id' });
    expect(link.views).toMatchObject({ kind: 'choices', group: 'views' });
    expect(settingControl('anything', undefined)).toEqual({ kind: 'unknown' });
    expect(settingsShape('amount').find((s) => s.key === 'decimals')?.control).toEqual({
      kind: 'number',
      min: 0,
      max: 10,
    });
  });
});
