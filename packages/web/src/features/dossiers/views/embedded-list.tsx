import { type DisplayItem, NO_ENTITY_ABILITIES, parseFieldSettings } from '@dossierbase/core';
import { Button, Group, Loader, Paper, SegmentedControl, Stack, Text } from '@mantine/core';
import { IconCopyPlus, IconPlus } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, Suspense, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useEnvironment } from '../../environments/environment-store';
import { useDataRefresh } from '../../realtime/use-data-refresh';
import { dossierListKeys, useEntityAbilities } from '../list/list-api';
import { EmbeddedAddModal } from './embedded-add';
import type { LinkedViewName, LinkedViewProps } from './linked-view';
import { RowEntryForm } from './row-entry';
import { EmbeddedSingleView } from './single-view';
import { allowedViews, type LimitLinkPrefill, startView } from './view-logic';
import { availableViews, preloadViews, viewRegistry } from './view-registry';

// A link configured as an embedded list, inside its parent dossier (spec doc 2 section 2): the view
// switcher (only with more than one view), Add and multi-add, the row entry form, and the chosen view;
// or, with embedded_single_view, the one linked dossier inline.

interface Props {
  item: DisplayItem;
  parentDossierId: number;
  /** the parent's summary, what a link pre-filled with the parent shows */
  parentSummary?: string;
  environmentId: number;
  label: ReactNode;
}

export function EmbeddedList({ item, parentDossierId, parentSummary, environmentId, label }: Props) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const link = item.def_dossier_link;
  const settings = parseFieldSettings('link', link?.settings ?? {});
  const entityId = link?.child_def_dossier_id ?? 0;
  const abilities = useEntityAbilities(entityId).data ?? link?.child_abilities ?? NO_ENTITY_ABILITIES;
  // the hour registration view also needs the environment's module (spec doc 2 section 2)
  const offered = availableViews(allowedViews(settings), useEnvironment()?.abilities);
  const [view, setView] = useState<LinkedViewName | null>(() => startView(offered));
  const offeredKey = offered.join();
  // biome-ignore lint/correctness/useExhaustiveDependencies: the names, not the array's identity
  useEffect(() => preloadViews(offered), [offeredKey]);
  const [adding, setAdding] = useState<'one' | 'multi' | null>(null);
  // limit_embedded_link: a child added here holds the parent through that link too (else not listed)
  const limitLinkId = settings.limit_embedded_link;
  const parentEntityId = link?.def_dossier_id ?? 0;
  const prefill = useMemo<LimitLinkPrefill | null>(
    () =>
      limitLinkId === null
        ? null
        : {
            linkId: limitLinkId,
            parent: {
              id: parentDossierId,
              summary: parentSummary || `#${parentDossierId}`,
              def_dossier_id: parentEntityId,
              archived: false,
            },
          },
    [limitLinkId, parentDossierId, parentSummary, parentEntityId],
  );
  // data_refresh: the child entity's rows read again every 10 s (after 500 ms), beside realtime events
  useDataRefresh(settings.data_refresh === true, () =>
    queryClient.invalidateQueries({ queryKey: [...dossierListKeys.all, entityId] }),
  );
  if (!link) return null;

  const props: LinkedViewProps = { environmentId, parentDossierId, linkId: link.id, entityId };
  const canAdd = abilities.canCreate && !settings.hide_add;
  const refresh = () => void queryClient.invalidateQueries({ queryKey: dossierListKeys.all });
  // inside the embedded dossiers the link back to this parent is not shown again
  const hiddenLinkIds = [link.id, ...(link.back_link_id ? [link.back_link_id] : [])];
  const View = view ? viewRegistry[view] : undefined;

  return (
    <Paper withBorder p="sm" data-testid={`embedded-list-${link.id}`} data-link-id={link.id}>
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap">
          <Text fw={600} component="h3" size="md" m={0}>
            {label}
          </Text>
          <Group gap="xs">
            {offered.length > 1 && !settings.embedded_single_view ? (
              <SegmentedControl
                size="xs"
                value={view ?? undefined}
                onChange={(value) => setView(value as LinkedViewName)}
                data={offered.map((name) => ({ value: name, label: t(`embedded.views.${name}`) }))}
                aria-label={t('embedded.view_switch')}
                data-testid="embedded-view-switch"
              />
            ) : null}
            {canAdd && settings.show_multi_add && !settings.embedded_single_view ? (
              <Button
                size="xs"
                variant="light"
                leftSection={<IconCopyPlus size={14} />}
                onClick={() => setAdding('multi')}
                data-testid="embedded-multi-add"
              >
                {t('embedded.multi_add')}
              </Button>
            ) : null}
            {canAdd && !settings.embedded_single_view ? (
              <Button
                size="xs"
                leftSection={<IconPlus size={14} />}
                onClick={() => setAdding('one')}
                data-testid="embedded-add"
              >
                {t('dossier_list.add')}
              </Button>
            ) : null}
          </Group>
        </Group>
        {settings.embedded_single_view ? (
          <EmbeddedSingleView
            {...props}
            hiddenLinkIds={hiddenLinkIds}
            canCreate={abilities.canCreate}
            prefill={prefill}
            onSaved={refresh}
          />
        ) : (
          <>
            {settings.row_input && abilities.canCreate && !settings.hide_add ? (
              <RowEntryForm
                entityId={entityId}
                parentDossierId={parentDossierId}
                linkId={link.id}
                prefill={prefill}
                onSaved={refresh}
              />
            ) : null}
            {View ? (
              <div data-testid={`embedded-view-${view}`}>
                <Suspense fallback={<Loader size="sm" />}>
                  <View {...props} />
                </Suspense>
              </div>
            ) : null}
          </>
        )}
      </Stack>
      {adding ? (
        <EmbeddedAddModal
          entityId={entityId}
          parentDossierId={parentDossierId}
          linkId={link.id}
          multi={adding === 'multi'}
          hiddenLinkIds={hiddenLinkIds}
          prefill={prefill}
          onClose={() => setAdding(null)}
          onSaved={() => {
            refresh();
            if (adding === 'one') setAdding(null);
          }}
        />
      ) : null}
    </Paper>
  );
}
