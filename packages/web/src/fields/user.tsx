import { parseFieldSettings } from '@dossierbase/core';
import { Avatar, Group, MultiSelect, type OptionsFilter, Select, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { emitNormalised, idsOf, idsToValue, USER_DEBOUNCE_MS } from './helpers';
import type { FieldDisplayProps, FieldEditorProps, UserOption } from './types';

/** Users from loadUsers(search), debounced 300 ms; the selected ones stay in the list. */
export function useUserSearch(loadUsers: FieldEditorProps['loadUsers'], known: readonly UserOption[] = []) {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, USER_DEBOUNCE_MS);
  const [found, setFound] = useState<UserOption[]>([]);
  const [loading, setLoading] = useState(false);
  useEffect(() => {
    if (!loadUsers) return;
    let current = true;
    setLoading(true);
    loadUsers(debounced)
      .then((users) => current && setFound(users))
      .catch(() => current && setFound([]))
      .finally(() => current && setLoading(false));
    return () => {
      current = false;
    };
  }, [debounced, loadUsers]);
  const all = [...found, ...known.filter((k) => !found.some((f) => f.id === k.id))];
  return { search, setSearch, loading, users: all };
}

/** The server searches; the picker shows what came back. */
const serverSearched: OptionsFilter = ({ options }) => options;

export function UserEditor(props: FieldEditorProps) {
  const { t } = useTranslation();
  const settings = parseFieldSettings('user', props.settings);
  const { search, setSearch, users } = useUserSearch(props.loadUsers, props.users);
  const selected = idsOf(props.value).map(String);
  const data = [
    ...users.map((u) => ({ value: String(u.id), label: u.name })),
    ...selected
      .filter((id) => !users.some((u) => String(u.id) === id))
      .map((id) => ({ value: id, label: `#${id}` })),
  ];
  const emit = (ids: string[]) =>
    emitNormalised(props, 'user', idsToValue(ids.map(Number), settings.multiple));
  const common = {
    label: props.label,
    description: props.description,
    withAsterisk: props.required,
    error: props.error,
    disabled: props.disabled,
    data,
    searchable: true,
    clearable: true,
    searchValue: search,
    onSearchChange: setSearch,
    filter: serverSearched,
    nothingFoundMessage: t('fields.nothing_found'),
  };
  if (settings.multiple) return <MultiSelect {...common} value={selected} onChange={emit} />;
  return <Select {...common} value={selected[0] ?? null} onChange={(v) => emit(v ? [v] : [])} />;
}

/** Names from `users` (else #id); display_name_style avatar/both adds initials avatars. */
export function UserDisplay({ value, settings, users = [] }: FieldDisplayProps) {
  const s = parseFieldSettings('user', settings);
  const ids = idsOf(value);
  if (ids.length === 0) return null;
  return (
    <Group gap="xs">
      {ids.map((id) => {
        const name = users.find((u) => u.id === id)?.name ?? `#${id}`;
        return (
          <Group key={id} gap={4} wrap="nowrap">
            {s.display_name_style !== 'default' ? <Avatar name={name} size="sm" color="initials" /> : null}
            {s.display_name_style !== 'avatar' ? <Text span>{name}</Text> : null}
          </Group>
        );
      })}
    </Group>
  );
}
