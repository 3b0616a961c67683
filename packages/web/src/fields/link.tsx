import { type LinkedDossier, parseFieldSettings } from '@dossierbase/core';
import {
  ActionIcon,
  Anchor,
  Button,
  Combobox,
  Group,
  Input,
  Loader,
  Stack,
  Text,
  useCombobox,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconFilter, IconPlus, IconX } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { dossierHref, LINK_DEBOUNCE_MS, linkPageSize } from './helpers';
import type { FieldDisplayProps, FieldEditorProps, LinkFilter } from './types';

export function linkedDossiers(value: unknown): LinkedDossier[] {
  return Array.isArray(value)
    ? value.filter((v): v is LinkedDossier => typeof v === 'object' && v !== null && 'id' in v)
    : [];
}

/** Paged search through searchDossiers(search, page, limit, filter): 25 per page, 50 when searching. */
function useDossierSearch(
  searchDossiers: FieldEditorProps['searchDossiers'],
  open: boolean,
  filter: LinkFilter | null,
) {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, LINK_DEBOUNCE_MS);
  const [page, setPage] = useState(1);
  const [items, setItems] = useState<LinkedDossier[]>([]);
  const [total, setTotal] = useState(0);
  const [loading, setLoading] = useState(false);

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new search or filter starts at page 1
  useEffect(() => setPage(1), [debounced, filter]);
  useEffect(() => {
    if (!searchDossiers || !open) return;
    let current = true;
    setLoading(true);
    searchDossiers(debounced, page, linkPageSize(debounced), filter?.params)
      .then((result) => {
        if (!current) return;
        setItems((prev) => (page === 1 ? result.items : [...prev, ...result.items]));
        setTotal(result.total);
      })
      .catch(() => current && setItems([]))
      .finally(() => current && setLoading(false));
    return () => {
      current = false;
    };
  }, [searchDossiers, debounced, page, open, filter]);
  return { search, setSearch, items, total, loading, more: () => setPage((p) => p + 1) };
}

/**
 * After the editor links or unlinks a dossier the focus stays in the field, on its search; a full
 * single link has none, and its remove button takes the focus. Without this, choosing an option with
 * Enter left the focus on the page's body, as the search it was in was gone.
 */
function useFocusKeptInField(linkCount: number) {
  const field = useRef<HTMLDivElement>(null);
  const changed = useRef(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once the new links are shown
  useEffect(() => {
    if (!changed.current) return;
    changed.current = false;
    const box = field.current;
    (box?.querySelector<HTMLElement>('input') ?? box?.querySelector<HTMLElement>('button'))?.focus();
  }, [linkCount]);
  return { field, keepFocus: () => (changed.current = true) };
}

/**
 * Link picker. Value: LinkedDossier[] (the contract's link value). A single-select link holds one
 * dossier: once one is linked the picker shows the limit message instead of the search.
 */
export function LinkEditor(props: FieldEditorProps) {
  const { t } = useTranslation();
  const settings = parseFieldSettings('link', props.settings);
  const linked = linkedDossiers(props.value);
  const combobox = useCombobox();
  const [open, setOpen] = useState(false);
  const [filter, setFilter] = useState<LinkFilter | null>(null);
  const { search, setSearch, items, total, loading, more } = useDossierSearch(
    props.searchDossiers,
    open,
    filter,
  );
  const chooseFilter = async () => {
    const chosen = await props.filterLinkedDossiers?.(filter);
    if (chosen === undefined) return; // cancelled
    setFilter(chosen);
    combobox.openDropdown();
  };
  const { field, keepFocus } = useFocusKeptInField(linked.length);
  const full = !settings.multiple && linked.length >= 1;
  const canCreate = Boolean(props.createLinkedDossier) && !settings.hide_add;
  const offered = items.filter((d) => !linked.some((l) => l.id === d.id));

  const add = (id: string) => {
    const dossier = items.find((d) => String(d.id) === id);
    if (!dossier) return;
    keepFocus();
    props.onChange(settings.multiple ? [...linked, dossier] : [dossier]);
    setSearch('');
    combobox.closeDropdown();
  };
  const remove = (id: number) => {
    const next = linked.filter((d) => d.id !== id);
    keepFocus();
    props.onChange(next.length > 0 ? next : null);
  };

  return (
    <Input.Wrapper
      label={props.label}
      description={props.description}
      withAsterisk={props.required}
      error={props.error}
    >
      <Stack gap={4} mt={4} ref={field}>
        {linked.map((d) => (
          <Group key={d.id} gap="xs" wrap="nowrap">
            <LinkedSummary dossier={d} clickable={settings.clickable} showId={settings.show_id} />
            {!props.disabled ? (
              <ActionIcon
                variant="subtle"
                color="gray"
                size="sm"
                aria-label={t('fields.link.remove')}
                onClick={() => remove(d.id)}
              >
                <IconX size={14} />
              </ActionIcon>
            ) : null}
          </Group>
        ))}
        {full ? (
          <Text size="xs" c="dimmed" data-testid="link-limit">
            {t('fields.link.limit')}
          </Text>
        ) : null}
        {!full && !props.disabled && (canCreate || props.filterLinkedDossiers) ? (
          <Group gap="xs">
            {canCreate ? (
              <Button
                variant="light"
                size="xs"
                leftSection={<IconPlus size={14} />}
                onClick={async () => {
                  const created = await props.createLinkedDossier?.();
                  if (!created) return;
                  keepFocus();
                  props.onChange(settings.multiple ? [...linkedDossiers(props.value), created] : [created]);
                }}
                data-testid="link-new"
              >
                {t('fields.link.new')}
              </Button>
            ) : null}
            {props.filterLinkedDossiers ? (
              <Button
                variant={filter ? 'filled' : 'default'}
                size="xs"
                leftSection={<IconFilter size={14} />}
                onClick={() => void chooseFilter()}
                data-testid="link-filter"
              >
                {t('fields.link.filter')}
              </Button>
            ) : null}
            {filter ? (
              <Button
                variant="subtle"
                size="xs"
                color="gray"
                leftSection={<IconX size={14} />}
                onClick={() => setFilter(null)}
                data-testid="link-filter-clear"
              >
                {t('fields.link.filter_clear')}
              </Button>
            ) : null}
          </Group>
        ) : null}
        {full ? null : !props.disabled ? (
          <Combobox
            store={combobox}
            onOptionSubmit={add}
            onOpen={() => setOpen(true)}
            onClose={() => setOpen(false)}
          >
            <Combobox.Target>
              {/* the wrapper's input: its label names it and its error describes it */}
              <Input
                error={Boolean(props.error)}
                placeholder={t('fields.link.search')}
                value={search}
                onChange={(e) => {
                  setSearch(e.currentTarget.value);
                  combobox.openDropdown();
                }}
                onFocus={() => combobox.openDropdown()}
                onClick={() => combobox.openDropdown()}
                rightSection={loading ? <Loader size={14} /> : null}
              />
            </Combobox.Target>
            <Combobox.Dropdown>
              <Combobox.Options mah={300} style={{ overflowY: 'auto' }}>
                {offered.map((d) => (
                  <Combobox.Option key={d.id} value={String(d.id)}>
                    {settings.show_id ? `${d.id} - ` : ''}
                    {d.summary}
                  </Combobox.Option>
                ))}
                {!loading && offered.length === 0 ? (
                  <Combobox.Empty>{t('fields.nothing_found')}</Combobox.Empty>
                ) : null}
              </Combobox.Options>
              {items.length < total ? (
                <Combobox.Footer>
                  <Button variant="subtle" size="xs" onClick={more} loading={loading}>
                    {t('fields.link.more')}
                  </Button>
                </Combobox.Footer>
              ) : null}
            </Combobox.Dropdown>
          </Combobox>
        ) : null}
      </Stack>
    </Input.Wrapper>
  );
}

export function LinkedSummary({
  dossier,
  clickable = true,
  showId = false,
}: {
  dossier: LinkedDossier;
  clickable?: boolean;
  showId?: boolean;
}) {
  const text = `${showId ? `${dossier.id} - ` : ''}${dossier.summary || `#${dossier.id}`}`;
  const style = dossier.archived ? { textDecoration: 'line-through' } : undefined;
  if (!clickable)
    return (
      <Text span style={style}>
        {text}
      </Text>
    );
  return (
    <Anchor component={RouterLink} to={dossierHref(dossier.id)} style={style}>
      {text}
    </Anchor>
  );
}

/** Linked summaries as links to /contentdossier/{id} (plain text when the link is not clickable). */
export function LinkDisplay({ value, settings }: FieldDisplayProps) {
  const s = parseFieldSettings('link', settings);
  const linked = linkedDossiers(value);
  if (linked.length === 0) return null;
  return (
    <Group gap="xs">
      {linked.map((d) => (
        <LinkedSummary key={d.id} dossier={d} clickable={s.clickable} showId={s.show_id} />
      ))}
    </Group>
  );
}
