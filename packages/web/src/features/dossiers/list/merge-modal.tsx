import {
  type DisplayItem,
  type DossierDetail,
  isServerComputed,
  type LinkedDossier,
  MERGE_LINK_CHOICES,
  type MergeAction,
  type MergeLinkChoice,
} from '@dossierbase/core';
import {
  Alert,
  Anchor,
  Button,
  Center,
  Checkbox,
  Group,
  Loader,
  Modal,
  Radio,
  Stack,
  Stepper,
  Table,
  Text,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api } from '../../../api/client';
import { errorMessage, notifyFailure } from '../../../api/errors';
import { FieldDisplay } from '../../../fields/field-item';
import { itemLabel } from '../../../fields/helpers';
import { useFieldLocale } from '../../../fields/shared';
import { dossierKeys, fetchDossier } from '../dossier-api';
import { knownUsers, storedUserIds } from '../known-users';
import { useEntityLayout } from '../use-entity-layout';
import { useFieldSources } from '../use-field-sources';

// The merge wizard (spec doc 2 sections 2 and 4, "Merge dossiers modal"): step one what happens to
// the old two (keep, archive, delete permanently; each only with its permission), step two a
// comparison of the two with a radio per field and a link configuration per link, Finish posts the
// merge, and the confirmation links to the new dossier.

type Side = 'left' | 'right';

const isEmpty = (value: unknown) =>
  value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0);

interface MergeModalProps {
  opened: boolean;
  ids: [number, number];
  entityId: number;
  environmentId: number;
  canArchive: boolean;
  canDelete: boolean;
  onClose: () => void;
  /** the merge is done (the list renews) */
  onMerged: () => void;
}

export function MergeModal(props: MergeModalProps) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={props.opened}
      onClose={props.onClose}
      size="80rem"
      title={t('merge.title')}
      closeOnClickOutside={false}
      data-testid="merge-modal"
    >
      {props.opened ? <MergeWizard {...props} /> : null}
    </Modal>
  );
}

/** One row per data field and per link the reader sees (an item on two tabs once). */
function comparedItems(items: readonly DisplayItem[]) {
  const seen = new Set<string>();
  return items.filter((item) => {
    const key = item.def_dossier_link
      ? `link:${item.def_dossier_link.id}`
      : item.def_dossier_def_field
        ? `field:${item.def_dossier_def_field.id}`
        : null;
    if (!key || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function MergeWizard({
  ids,
  entityId,
  environmentId,
  canArchive,
  canDelete,
  onClose,
  onMerged,
}: MergeModalProps) {
  const { t } = useTranslation();
  const locale = useFieldLocale();
  const [step, setStep] = useState(0);
  const [action, setAction] = useState<MergeAction | null>(null);
  const [actionError, setActionError] = useState(false);
  const [fieldSides, setFieldSides] = useState<Record<number, Side>>({});
  const [linkChoices, setLinkChoices] = useState<Record<number, MergeLinkChoice>>({});
  const [selectedLinks, setSelectedLinks] = useState<Record<number, number[]>>({});
  const [linkErrors, setLinkErrors] = useState<Set<number>>(new Set());
  const [saving, setSaving] = useState(false);
  const [mergedId, setMergedId] = useState<number | null>(null);
  // Once merged, the old two may be gone: the realtime refresh must not read them again (a 404 would
  // replace the confirmation with an error).
  const left = useQuery({
    queryKey: dossierKeys.detail(ids[0], null),
    queryFn: ({ signal }) => fetchDossier(ids[0], null, signal),
    enabled: mergedId === null,
  });
  const right = useQuery({
    queryKey: dossierKeys.detail(ids[1], null),
    queryFn: ({ signal }) => fetchDossier(ids[1], null, signal),
    enabled: mergedId === null,
  });
  const { layout } = useEntityLayout(entityId);
  const known = useMemo(() => knownUsers(), []);
  const shown = useMemo(
    () =>
      left.data && right.data ? storedUserIds(left.data.items, [left.data.content, right.data.content]) : [],
    [left.data, right.data],
  );
  const sources = useFieldSources(layout.options, known, shown);
  const items = useMemo(() => comparedItems(left.data?.items ?? []), [left.data]);
  const sides: Record<Side, DossierDetail | undefined> = { left: left.data, right: right.data };
  const valueAt = (side: Side, item: DisplayItem) => sides[side]?.content[String(item.id)];
  const linked = (side: Side, item: DisplayItem) =>
    (valueAt(side, item) as LinkedDossier[] | undefined) ?? [];
  /** the side a field's value comes from: the user's choice, else the first side that has one */
  const sideOf = (item: DisplayItem): Side | null =>
    fieldSides[item.id] ??
    (!isEmpty(valueAt('left', item)) ? 'left' : !isEmpty(valueAt('right', item)) ? 'right' : null);
  const name = (side: Side) => {
    const d = sides[side]?.dossier;
    return d ? d.summary || `#${d.id}` : '';
  };

  const next = () => {
    if (!action) {
      setActionError(true);
      return;
    }
    setStep(1);
  };
  const finish = async () => {
    const linkItems = items.filter(
      (item) =>
        item.def_dossier_link && (linked('left', item).length > 0 || linked('right', item).length > 0),
    );
    const missing = new Set(linkItems.filter((item) => !linkChoices[item.id]).map((item) => item.id));
    setLinkErrors(missing);
    if (missing.size > 0) return;
    const mergeDossier = [
      ...items.flatMap((item) => {
        const side = item.def_dossier_def_field ? sideOf(item) : null;
        return side ? [{ id: item.id, use: side }] : [];
      }),
      ...linkItems.map((item) => ({
        link_id: item.id,
        use_from: linkChoices[item.id],
        ids: linkChoices[item.id] === 'selectedlinks' ? (selectedLinks[item.id] ?? []) : [],
      })),
    ];
    setSaving(true);
    try {
      const { id } = await api.post<{ id: number }>('/contentdossier/merge', {
        environment: environmentId,
        dossiers: { action, ids },
        mergeDossier,
      });
      setMergedId(id);
      setStep(2);
    } catch (error) {
      notifyFailure(errorMessage(error, t));
    } finally {
      setSaving(false);
    }
  };

  if (mergedId === null && (left.error || right.error))
    return (
      <Alert color="red" data-testid="merge-error">
        {errorMessage(left.error ?? right.error, t)}
      </Alert>
    );

  return (
    <Stack>
      <Stepper active={step} size="sm" allowNextStepsSelect={false}>
        <Stepper.Step label={t('merge.step_option')} />
        <Stepper.Step label={t('merge.step_compare')} />
        <Stepper.Completed>{null}</Stepper.Completed>
      </Stepper>
      {step === 0 ? (
        <Stack data-testid="merge-step-option">
          <Radio.Group
            value={action}
            onChange={(value) => {
              setAction(value as MergeAction);
              setActionError(false);
            }}
            label={t('merge.option_label')}
            error={actionError ? t('merge.select_option') : undefined}
            data-testid="merge-option"
          >
            <Stack gap="xs" pt="xs">
              <Radio value="keep" label={t('merge.keep')} data-testid="merge-option-keep" />
              <Radio
                value="archive"
                label={t('merge.archive')}
                disabled={!canArchive}
                data-testid="merge-option-archive"
              />
              <Radio
                value="delete"
                label={t('merge.delete')}
                disabled={!canDelete}
                data-testid="merge-option-delete"
              />
            </Stack>
          </Radio.Group>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button onClick={next} data-testid="merge-next">
              {t('merge.next')}
            </Button>
          </Group>
        </Stack>
      ) : null}
      {step === 1 ? (
        !left.data || !right.data ? (
          <Center py="xl">
            <Loader />
          </Center>
        ) : (
          <Stack data-testid="merge-step-compare">
            <Table withTableBorder withColumnBorders data-testid="merge-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('merge.field')}</Table.Th>
                  <Table.Th>{name('left')}</Table.Th>
                  <Table.Th>{name('right')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {items.map((item) => {
                  const label = itemLabel(item, locale);
                  const type = item.def_dossier_def_field?.def_field?.type;
                  if (item.def_dossier_link) {
                    return (
                      <Table.Tr key={item.id} data-testid={`merge-row-${item.id}`}>
                        <Table.Td>{label}</Table.Td>
                        {(['left', 'right'] as const).map((side) => (
                          <Table.Td key={side}>
                            {linked(side, item).length === 0 ? (
                              <Text size="sm" c="dimmed">
                                {t('merge.no_value')}
                              </Text>
                            ) : (
                              <Text size="sm">
                                {linked(side, item)
                                  .map((d) => d.summary || `#${d.id}`)
                                  .join(', ')}
                              </Text>
                            )}
                          </Table.Td>
                        ))}
                      </Table.Tr>
                    );
                  }
                  const server = type ? isServerComputed(type) : false;
                  const side = sideOf(item);
                  return (
                    <Table.Tr key={item.id} data-testid={`merge-row-${item.id}`}>
                      <Table.Td>{label}</Table.Td>
                      {(['left', 'right'] as const).map((cell) => {
                        const value = valueAt(cell, item);
                        return (
                          <Table.Td key={cell}>
                            {type === 'calc' ? (
                              <Text size="sm" c="dimmed">
                                {t('merge.formula')}
                              </Text>
                            ) : isEmpty(value) ? (
                              <Group gap="xs" wrap="nowrap">
                                {server ? null : (
                                  <Radio
                                    disabled
                                    checked={false}
                                    onChange={() => undefined}
                                    aria-label={t('merge.take_from', { field: label, name: name(cell) })}
                                  />
                                )}
                                <Text size="sm" c="dimmed">
                                  {t('merge.no_value')}
                                </Text>
                              </Group>
                            ) : (
                              <Group gap="xs" wrap="nowrap" align="flex-start">
                                {server ? null : (
                                  <Radio
                                    name={`merge-${item.id}`}
                                    checked={side === cell}
                                    onChange={() => setFieldSides((s) => ({ ...s, [item.id]: cell }))}
                                    aria-label={t('merge.take_from', { field: label, name: name(cell) })}
                                    data-testid={`merge-radio-${item.id}-${cell}`}
                                  />
                                )}
                                <FieldDisplay item={item} value={value} {...sources(item)} />
                              </Group>
                            )}
                          </Table.Td>
                        );
                      })}
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
            {items
              .filter(
                (item) =>
                  item.def_dossier_link &&
                  (linked('left', item).length > 0 || linked('right', item).length > 0),
              )
              .map((item) => {
                const label = itemLabel(item, locale);
                const union = [...linked('left', item), ...linked('right', item)].filter(
                  (d, i, all) => all.findIndex((o) => o.id === d.id) === i,
                );
                const choice = linkChoices[item.id];
                return (
                  <Stack key={item.id} gap="xs" data-testid={`merge-links-${item.id}`}>
                    <Radio.Group
                      label={t('merge.link_configuration', { link: label })}
                      value={choice ?? null}
                      onChange={(value) => {
                        setLinkChoices((c) => ({ ...c, [item.id]: value as MergeLinkChoice }));
                        setLinkErrors((e) => new Set([...e].filter((id) => id !== item.id)));
                      }}
                      error={linkErrors.has(item.id) ? t('merge.select_option') : undefined}
                    >
                      <Group pt="xs">
                        {MERGE_LINK_CHOICES.map((c) => (
                          <Radio
                            key={c}
                            value={c}
                            label={t(`merge.links_${c}`, { left: name('left'), right: name('right') })}
                            data-testid={`merge-link-${item.id}-${c}`}
                          />
                        ))}
                      </Group>
                    </Radio.Group>
                    {choice === 'selectedlinks' ? (
                      <Checkbox.Group
                        value={(selectedLinks[item.id] ?? []).map(String)}
                        onChange={(values) =>
                          setSelectedLinks((s) => ({ ...s, [item.id]: values.map(Number) }))
                        }
                        label={t('merge.links_pick', { link: label })}
                      >
                        <Stack gap={4} pt="xs">
                          {union.map((d) => (
                            <Checkbox
                              key={d.id}
                              value={String(d.id)}
                              label={d.summary || `#${d.id}`}
                              data-testid={`merge-link-pick-${item.id}-${d.id}`}
                            />
                          ))}
                        </Stack>
                      </Checkbox.Group>
                    ) : null}
                  </Stack>
                );
              })}
            <Group justify="space-between">
              <Button variant="default" onClick={() => setStep(0)}>
                {t('merge.back')}
              </Button>
              <Group>
                <Button variant="default" onClick={onClose}>
                  {t('common.cancel')}
                </Button>
                <Button onClick={() => void finish()} loading={saving} data-testid="merge-finish">
                  {t('merge.finish')}
                </Button>
              </Group>
            </Group>
          </Stack>
        )
      ) : null}
      {step === 2 && mergedId !== null ? (
        <Stack data-testid="merge-done">
          <Alert color="green">{t('merge.done')}</Alert>
          <Anchor component={Link} to={`/contentdossier/${mergedId}`} data-testid="merge-open">
            {t('merge.open_new')}
          </Anchor>
          <Group justify="flex-end">
            <Button onClick={onMerged} data-testid="merge-close">
              {t('common.close')}
            </Button>
          </Group>
        </Stack>
      ) : null}
    </Stack>
  );
}
