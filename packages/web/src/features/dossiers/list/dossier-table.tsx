import type { Aggregation, AggregationResult, DisplayItem, Dossier, ListOption } from '@dossierbase/core';
import {
  ActionIcon,
  Checkbox,
  Group,
  Select,
  Stack,
  Table,
  Text,
  Tooltip,
  UnstyledButton,
} from '@mantine/core';
import {
  IconArchive,
  IconArrowDown,
  IconArrowsSort,
  IconArrowUp,
  IconBell,
  IconEye,
  IconEyeOff,
  IconPencil,
} from '@tabler/icons-react';
import type { MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { FieldDisplay, FORMAT_LOCALE, itemLabel, type UserOption } from '../../../fields';
import { useFieldLocale } from '../../../fields/shared';
import { formatAggregate } from './aggregates';
import { aggregationsOf, isSortableItem, type Sort } from './list-params';

interface DossierTableProps {
  items: readonly DisplayItem[];
  dossiers: readonly Dossier[];
  contents: Record<string, Record<string, unknown>>;
  optionsOf: (item: DisplayItem) => ListOption[] | undefined;
  /** names for user fields */
  users: readonly UserOption[];
  /** per dossier id; a missing id counts as allowed until the server has answered */
  tabsAllowed: Map<number, boolean> | undefined;
  /** the dossiers the user subscribes to: their rows show a bell */
  subscribed?: ReadonlySet<number>;
  sort: Sort | null;
  onSort: (itemId: number) => void;
  selected: ReadonlySet<number>;
  onSelect: (ids: Set<number>) => void;
  aggregates: Record<string, Aggregation>;
  aggregations: readonly AggregationResult[];
  onAggregate: (itemId: number, aggregate: Aggregation | null) => void;
  onOpen: (id: number, newWindow: boolean) => void;
  /** quick show / quick edit icons; left out when not given */
  onQuickShow?: (id: number) => void;
  onQuickEdit?: (id: number) => void;
  canEdit: boolean;
  /** an id column before the items (the link setting show_id) */
  showId?: boolean;
  /** rows with checkboxes and a select-all (default); an embedded list that only adds has none */
  selectable?: boolean;
}

/** Clicks on controls inside a row (links, buttons, checkboxes) do not open the dossier. */
const isControl = (target: EventTarget) =>
  target instanceof Element && !!target.closest('a, button, input, label, [role="button"]');

export function DossierTable(props: DossierTableProps) {
  const { t } = useTranslation();
  const locale = useFieldLocale();
  const { items, dossiers, selected } = props;
  const allowed = (id: number) => props.tabsAllowed?.get(id) !== false;
  const selectable = dossiers.filter((d) => allowed(d.id)).map((d) => d.id);
  const allSelected = selectable.length > 0 && selectable.every((id) => selected.has(id));
  const someSelected = selectable.some((id) => selected.has(id));

  const toggle = (id: number) => {
    const next = new Set(selected);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    props.onSelect(next);
  };
  const sortIcon = (itemId: number) => {
    if (props.sort?.itemId !== itemId) return <IconArrowsSort size={14} opacity={0.4} />;
    return props.sort.order === 'asc' ? <IconArrowUp size={14} /> : <IconArrowDown size={14} />;
  };
  const rowClick = (event: MouseEvent, id: number) => {
    if (isControl(event.target)) return;
    props.onOpen(id, event.ctrlKey || event.metaKey);
  };
  const resultOf = (itemId: number) => props.aggregations.find((a) => a.id === itemId);
  const withSelection = props.selectable !== false;

  return (
    <Table.ScrollContainer minWidth={600}>
      <Table highlightOnHover verticalSpacing="xs" data-testid="dossier-table">
        <Table.Thead>
          <Table.Tr>
            {withSelection ? (
              <Table.Th w={40}>
                <Checkbox
                  aria-label={t('dossier_list.select_all')}
                  checked={allSelected}
                  indeterminate={someSelected && !allSelected}
                  disabled={selectable.length === 0}
                  onChange={() => props.onSelect(allSelected ? new Set() : new Set(selectable))}
                  data-testid="dossier-select-all"
                />
              </Table.Th>
            ) : null}
            <Table.Th w={90} />
            {props.showId ? (
              <Table.Th w={80} data-testid="dossier-id-column">
                {t('dossier_list.id')}
              </Table.Th>
            ) : null}
            {items.map((item) => (
              <Table.Th
                key={item.id}
                data-testid="dossier-column"
                data-item-id={item.id}
                style={{ whiteSpace: 'nowrap' }}
              >
                {isSortableItem(item) ? (
                  <UnstyledButton
                    onClick={() => props.onSort(item.id)}
                    data-testid={`dossier-sort-${item.id}`}
                    data-sort={props.sort?.itemId === item.id ? props.sort.order : 'none'}
                  >
                    <Group gap={4} wrap="nowrap">
                      <Text fw={700} size="sm">
                        {itemLabel(item, locale)}
                      </Text>
                      {sortIcon(item.id)}
                    </Group>
                  </UnstyledButton>
                ) : (
                  itemLabel(item, locale)
                )}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {dossiers.map((dossier) => {
            const open = allowed(dossier.id);
            const content = props.contents[String(dossier.id)] ?? {};
            return (
              <Table.Tr
                key={dossier.id}
                data-testid="dossier-row"
                data-dossier-id={dossier.id}
                data-archived={dossier.archived ? 'true' : 'false'}
                data-clickable={open ? 'true' : 'false'}
                onClick={open ? (event) => rowClick(event, dossier.id) : undefined}
                // a row that opens is a tab stop and opens with Enter, as a click does
                tabIndex={open ? 0 : undefined}
                onKeyDown={
                  open
                    ? (event) => {
                        if (event.key === 'Enter' && event.target === event.currentTarget)
                          props.onOpen(dossier.id, event.ctrlKey || event.metaKey);
                      }
                    : undefined
                }
                // archived rows in italics on grey, not faded: faded text loses its contrast
                style={{
                  cursor: open ? 'pointer' : 'default',
                  fontStyle: dossier.archived ? 'italic' : undefined,
                }}
                bg={
                  selected.has(dossier.id)
                    ? 'var(--mantine-primary-color-light)'
                    : dossier.archived
                      ? 'var(--mantine-color-gray-1)'
                      : undefined
                }
              >
                {withSelection ? (
                  <Table.Td>
                    <Checkbox
                      aria-label={t('dossier_list.select_row')}
                      checked={selected.has(dossier.id)}
                      disabled={!open}
                      onChange={() => toggle(dossier.id)}
                      data-testid="dossier-row-select"
                    />
                  </Table.Td>
                ) : null}
                <Table.Td>
                  <Group gap={4} wrap="nowrap" justify="flex-start">
                    {dossier.archived ? (
                      <Tooltip label={t('dossier_list.archived_badge')}>
                        <IconArchive
                          size={18}
                          color="var(--mantine-color-gray-6)"
                          aria-label={t('dossier_list.archived_badge')}
                          data-testid="dossier-archived-badge"
                        />
                      </Tooltip>
                    ) : null}
                    {props.subscribed?.has(dossier.id) ? (
                      <Tooltip label={t('dossier_list.subscribed_badge')}>
                        <IconBell
                          size={18}
                          color="var(--mantine-color-gray-7)"
                          aria-label={t('dossier_list.subscribed_badge')}
                          data-testid="dossier-subscribed-badge"
                        />
                      </Tooltip>
                    ) : null}
                    {!open ? (
                      <Tooltip label={t('dossier_list.not_allowed')}>
                        <IconEyeOff
                          size={18}
                          data-testid="dossier-row-hidden"
                          aria-label={t('dossier_list.not_allowed')}
                        />
                      </Tooltip>
                    ) : (
                      <>
                        {props.onQuickShow ? (
                          <ActionIcon
                            variant="subtle"
                            aria-label={t('dossier_list.quick_show')}
                            onClick={() => props.onQuickShow?.(dossier.id)}
                            data-testid="dossier-quick-show"
                          >
                            <IconEye size={18} />
                          </ActionIcon>
                        ) : null}
                        {props.onQuickEdit && props.canEdit && !dossier.archived ? (
                          <ActionIcon
                            variant="subtle"
                            aria-label={t('dossier_list.quick_edit')}
                            onClick={() => props.onQuickEdit?.(dossier.id)}
                            data-testid="dossier-quick-edit"
                          >
                            <IconPencil size={18} />
                          </ActionIcon>
                        ) : null}
                      </>
                    )}
                  </Group>
                </Table.Td>
                {props.showId ? <Table.Td data-testid="dossier-id">{dossier.id}</Table.Td> : null}
                {items.map((item) => (
                  <Table.Td key={item.id} data-testid={`dossier-cell-${item.id}`} style={{ minWidth: 100 }}>
                    <FieldDisplay
                      item={item}
                      value={content[String(item.id)]}
                      options={props.optionsOf(item)}
                      users={props.users}
                      listMode
                    />
                  </Table.Td>
                ))}
              </Table.Tr>
            );
          })}
        </Table.Tbody>
        <Table.Tfoot>
          <Table.Tr>
            {withSelection ? <Table.Td /> : null}
            <Table.Td />
            {props.showId ? <Table.Td /> : null}
            {items.map((item) => {
              const choices = aggregationsOf(item);
              const result = resultOf(item.id);
              return (
                <Table.Td key={item.id} valign="top">
                  {choices.length > 0 ? (
                    <Stack gap={2}>
                      <Select
                        size="xs"
                        miw={120}
                        placeholder={t('dossier_list.aggregate.placeholder')}
                        aria-label={t('dossier_list.aggregate.label', { column: itemLabel(item, locale) })}
                        data={choices.map((a) => ({ value: a, label: t(`dossier_list.aggregate.${a}`) }))}
                        value={props.aggregates[item.id] ?? null}
                        onChange={(value) => props.onAggregate(item.id, (value as Aggregation) ?? null)}
                        clearable
                        comboboxProps={{ withinPortal: true }}
                        data-testid={`dossier-aggregate-${item.id}`}
                      />
                      {result ? (
                        <Text size="sm" fw={600} data-testid={`dossier-aggregate-value-${item.id}`}>
                          {formatAggregate(item, result, FORMAT_LOCALE)}
                        </Text>
                      ) : null}
                    </Stack>
                  ) : null}
                </Table.Td>
              );
            })}
          </Table.Tr>
        </Table.Tfoot>
      </Table>
    </Table.ScrollContainer>
  );
}
