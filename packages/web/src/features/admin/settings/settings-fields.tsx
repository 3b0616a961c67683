import { MultiSelect, NumberInput, Select, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { QueryPicker } from '../../queries/query-picker';
import { settingLabel, settingOptionLabel } from '../labels';
import { DeadlineRemindersInput } from './deadline-reminders-input';
import { LinkSortInput } from './link-sort-input';
import { type SettingControl, type SettingShape, settingsShape } from './setting-controls';
import { LinkPicker, ListOptionPicker, ViewPicker, WeekdaysPicker } from './setting-pickers';

type Settings = Record<string, unknown>;

/** What the pickers need to know about where the field lives. */
export interface SettingsContext {
  /** The entity being configured (its views for popup_view). */
  entity?: number;
  /** A link's child entity (its views, links and fields for the link settings). */
  child?: number;
  /** The base field (its list options for default_list_option). */
  baseField?: number;
}

/**
 * The settings form of a field type, one labelled control per setting of the type's schema (see
 * setting-controls.ts). `value` holds the settings of the level being edited; `inherited` what
 * applies where that level sets nothing (the type's defaults, and the base or data field's settings
 * under an override). `extra` adds settings of the edited record itself (a display item's).
 */
export function SettingsFields({
  type,
  value,
  onChange,
  inherited = {},
  extra = {},
  errors = {},
  disabled,
  context = {},
}: {
  type: string;
  value: Settings;
  onChange: (next: Settings) => void;
  inherited?: Settings;
  extra?: Record<string, SettingControl>;
  errors?: Record<string, string | undefined>;
  disabled?: boolean;
  context?: SettingsContext;
}) {
  const { t } = useTranslation();
  const shape: SettingShape[] = [
    ...Object.entries(extra).map(([key, control]) => ({ key, control, fallback: undefined })),
    ...settingsShape(type).filter(({ key }) => !(key in extra)),
  ].filter(({ control }) => shown(control, context));
  if (shape.length === 0) {
    return (
      <Text c="dimmed" size="sm" data-testid="settings-none">
        {t('admin.no_settings')}
      </Text>
    );
  }
  const set = (key: string, next: unknown) => onChange({ ...value, [key]: next });
  return (
    <Stack gap="xs" data-testid="settings-fields">
      {shape.map(({ key, control, fallback }) => (
        <SettingInput
          key={key}
          name={key}
          control={control}
          value={key in value ? value[key] : (inherited[key] ?? fallback)}
          onChange={(next) => set(key, next)}
          error={errors[key]}
          disabled={disabled}
          context={context}
        />
      ))}
    </Stack>
  );
}

/** Pickers need their record; settings awaiting a resource the product lacks are left as stored. */
function shown(control: SettingControl, context: SettingsContext): boolean {
  switch (control.kind) {
    case 'awaiting':
    case 'unknown':
      return false;
    case 'list-option':
      return !!context.baseField;
    case 'link':
    case 'sort':
    case 'custom-view':
    case 'query':
      return !!(control.of === 'child' ? context.child : context.entity);
    default:
      return true;
  }
}

function SettingInput({
  name,
  control,
  value,
  onChange,
  error,
  disabled,
  context,
}: {
  name: string;
  control: SettingControl;
  value: unknown;
  onChange: (next: unknown) => void;
  error?: string;
  disabled?: boolean;
  context: SettingsContext;
}) {
  const { t, i18n } = useTranslation();
  const common = { label: settingLabel(t, name), error, disabled, 'data-testid': `setting-${name}` };
  const target = (of: 'entity' | 'child') => (of === 'child' ? context.child : context.entity) ?? 0;
  switch (control.kind) {
    case 'switch':
      return (
        <Switch
          {...common}
          checked={value === true}
          onChange={(event) => onChange(event.currentTarget.checked)}
        />
      );
    case 'number':
      return (
        <NumberInput
          {...common}
          min={control.min}
          max={control.max}
          value={typeof value === 'number' ? value : ''}
          onChange={(next) => onChange(typeof next === 'number' ? next : undefined)}
        />
      );
    case 'text':
      return (
        <TextInput
          {...common}
          value={typeof value === 'string' ? value : ''}
          onChange={(event) => onChange(event.currentTarget.value)}
        />
      );
    case 'choice':
      return (
        <Select
          {...common}
          data={control.options.map((option) => ({
            value: option,
            label: settingOptionLabel(t, control.group, option),
          }))}
          value={typeof value === 'string' ? value : null}
          allowDeselect={false}
          onChange={(next) => next !== null && onChange(next)}
        />
      );
    case 'choices':
      return (
        <MultiSelect
          {...common}
          data={control.options.map((option) => ({
            value: option,
            label: settingOptionLabel(t, control.group, option),
          }))}
          value={Array.isArray(value) ? value.map(String) : []}
          onChange={onChange}
        />
      );
    case 'currency': {
      const names = new Intl.DisplayNames(i18n.language, { type: 'currency' });
      return (
        <Select
          {...common}
          searchable
          data={control.options.map((code) => ({
            value: code,
            label: `${names.of(code) ?? code} (${code})`,
          }))}
          value={typeof value === 'string' ? value : null}
          allowDeselect={false}
          onChange={(next) => next !== null && onChange(next)}
        />
      );
    }
    case 'weekdays':
      return <WeekdaysPicker {...common} value={value} onChange={onChange} />;
    case 'deadlines':
      return (
        <DeadlineRemindersInput
          label={common.label}
          value={value}
          onChange={onChange}
          error={error}
          disabled={disabled}
          testId={common['data-testid']}
        />
      );
    case 'list-option':
      return (
        <ListOptionPicker {...common} baseField={context.baseField ?? 0} value={value} onChange={onChange} />
      );
    case 'link':
      return (
        <LinkPicker
          {...common}
          entity={target(control.of)}
          // a child's link can only hold a dossier of the entity being configured when it leads there
          leadingTo={control.of === 'child' ? context.entity : undefined}
          value={value}
          onChange={onChange}
        />
      );
    case 'view':
      return <ViewPicker {...common} entity={target(control.of)} value={value} onChange={onChange} />;
    case 'custom-view':
      return (
        <ViewPicker {...common} entity={target(control.of)} customOnly value={value} onChange={onChange} />
      );
    case 'query':
      return (
        <QueryPicker
          {...common}
          entity={target(control.of)}
          by={control.by}
          value={value}
          // a cleared id setting is null; a cleared uuid setting is the schema's empty text
          onChange={(next) => onChange(next ?? (control.by === 'uuid' ? '' : null))}
        />
      );
    case 'sort':
      return (
        <LinkSortInput
          label={common.label}
          entity={target(control.of)}
          value={value}
          onChange={onChange}
          error={error}
          disabled={disabled}
          testId={common['data-testid']}
        />
      );
    default:
      return null;
  }
}
