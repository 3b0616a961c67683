import type { DisplayItem, DisplayPosition } from '@dossierbase/core';
import { Alert, Anchor, Drawer, Group, Loader, Stack, Text } from '@mantine/core';
import { IconExternalLink } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { errorMessage } from '../../../api/errors';
import { useFieldLocale } from '../../../fields/shared';
import { detailValues } from '../detail/dossier-data';
import { dossierKeys, fetchDossierInView } from '../dossier-api';
import { DossierForm } from '../dossier-form';
import { knownUsers, storedUserIds } from '../known-users';
import { positionName, useEntityLayout } from '../use-entity-layout';
import { useFieldSources } from '../use-field-sources';

// The side panel of an embedded list whose link names a view in passing_sidebar: a row opens its
// dossier here, in that view's items and positions, instead of leaving the parent's page; a link
// opens the dossier's own page. A drawer: a dialog that keeps the focus inside and closes on Escape.

interface Props {
  /** the dossier shown, null: closed */
  dossierId: number | null;
  /** the view of the child entity the dossier is shown in (passing_sidebar) */
  view: string;
  /** the links back to the parent dossier, not shown again inside it */
  hiddenLinkIds: readonly number[];
  onClose: () => void;
}

export function DossierSidePanel({ dossierId, view, hiddenLinkIds, onClose }: Props) {
  const { t } = useTranslation();
  const detail = useQuery({
    queryKey: dossierKeys.inView(dossierId ?? 0, view),
    queryFn: ({ signal }) => fetchDossierInView(dossierId ?? 0, view, signal),
    enabled: dossierId !== null,
  });
  const dossier = dossierId !== null ? detail.data?.dossier : undefined;
  const title = dossier ? dossier.summary || `#${dossier.id}` : t('embedded.side_panel');
  return (
    <Drawer
      opened={dossierId !== null}
      onClose={onClose}
      position="right"
      size="xl"
      title={title}
      closeButtonProps={{ 'aria-label': t('common.close') }}
      data-testid="dossier-side-panel"
    >
      {dossierId === null ? null : detail.isError ? (
        <Alert color="red" data-testid="dossier-side-panel-error">
          {errorMessage(detail.error, t)}
        </Alert>
      ) : !detail.data ? (
        <Loader size="sm" />
      ) : (
        <PanelContent detail={detail.data} hiddenLinkIds={hiddenLinkIds} />
      )}
    </Drawer>
  );
}

type Detail = NonNullable<Awaited<ReturnType<typeof fetchDossierInView>>>;

/** The positions of the view in page order (main content, tabs, meta, footer), with their items. */
function sectionsOf(positions: readonly DisplayPosition[] | null, items: readonly DisplayItem[]) {
  const order = ['main_content', 'tab', 'meta', 'footer'];
  const shown = (positions ?? [])
    .filter((p) => !p.hide && order.includes(p.type))
    .sort((a, b) => order.indexOf(a.type) - order.indexOf(b.type) || a.rank - b.rank || a.id - b.id);
  const placed = new Set(shown.map((p) => p.id));
  // items of a view without positions (or of positions the reader does not have) come first, unnamed
  const loose = items.filter(
    (item) => item.display_position_id === null || !placed.has(item.display_position_id),
  );
  return [
    ...(loose.length ? [{ position: null, items: loose }] : []),
    ...shown.map((position) => ({
      position,
      items: items.filter((item) => item.display_position_id === position.id),
    })),
  ].filter((section) => section.items.length > 0);
}

function PanelContent({ detail, hiddenLinkIds }: { detail: Detail; hiddenLinkIds: readonly number[] }) {
  const { t } = useTranslation();
  const locale = useFieldLocale();
  const { dossier } = detail;
  const { layout } = useEntityLayout(dossier.def_dossier_id);
  const users = useMemo(
    () => knownUsers(dossier.created_by, dossier.modified_by),
    [dossier.created_by, dossier.modified_by],
  );
  const shownUserIds = useMemo(() => storedUserIds(detail.items, [detail.content]), [detail]);
  const sources = useFieldSources(layout.options, users, shownUserIds);
  // the view's items are shown as the page shows its values (whatever view they were placed in)
  const items = useMemo(() => detail.items.map((item) => ({ ...item, view: 'show' })), [detail.items]);
  const sections = sectionsOf(layout.positions, items);
  const values = detailValues(detail);
  return (
    <Stack gap="md" data-testid="dossier-side-panel-content" data-dossier-id={dossier.id}>
      <Group justify="flex-end">
        <Anchor
          component={Link}
          to={`/contentdossier/${dossier.id}`}
          data-testid="dossier-side-panel-open"
          inline
        >
          <Group gap={4} component="span" wrap="nowrap">
            <IconExternalLink size={16} aria-hidden />
            {t('embedded.open', { name: dossier.summary || `#${dossier.id}` })}
          </Group>
        </Anchor>
      </Group>
      {sections.length === 0 ? (
        <Text c="dimmed" size="sm" data-testid="dossier-side-panel-empty">
          {t('dossier.no_fields')}
        </Text>
      ) : (
        sections.map(({ position, items: sectionItems }) => (
          <Stack key={position?.id ?? 'loose'} gap="xs">
            {position && positionName(position, locale) ? (
              <Text fw={600} component="h3" size="md" m={0}>
                {positionName(position, locale)}
              </Text>
            ) : null}
            <DossierForm
              items={sectionItems}
              mode="show"
              values={values}
              conditions={layout.settings.conditions}
              sources={sources}
              hiddenLinkIds={hiddenLinkIds}
              dossier={{ id: dossier.id, environmentId: dossier.environment_id, summary: dossier.summary }}
              testId={`dossier-side-panel-${position?.id ?? 'loose'}`}
            />
          </Stack>
        ))
      )}
    </Stack>
  );
}
