import { Anchor, Button, Center, Group, Loader, Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { detailValues } from '../detail/dossier-data';
import { dossierKeys, fetchDossier } from '../dossier-api';
import { DossierForm } from '../dossier-form';
import { ExistingMatchesModal } from '../existing-matches-modal';
import { useEntityLayout } from '../use-entity-layout';
import { useFieldSources } from '../use-field-sources';
import { useNewDossierForm } from '../use-new-dossier-form';
import type { LinkedViewProps } from './linked-view';
import type { LimitLinkPrefill } from './view-logic';
import { embeddedParams, useEmbeddedList } from './views-api';

// Embedded single view (link setting embedded_single_view): the one linked dossier shown inline, or
// a create form (linked to the parent) while none is linked yet.

interface Props extends LinkedViewProps {
  /** links hidden inside the embedded dossier: the way back to the parent */
  hiddenLinkIds: readonly number[];
  canCreate: boolean;
  /** limit_embedded_link: in the create form that link starts holding the parent */
  prefill: LimitLinkPrefill | null;
  onSaved: () => void;
}

export function EmbeddedSingleView(props: Props) {
  const query = useMemo(
    () => new URLSearchParams({ ...embeddedParams(props), limit: '1', page: '0' }).toString(),
    [props],
  );
  const list = useEmbeddedList(props, query);
  if (!list.data)
    return (
      <Center py="sm">
        <Loader size="sm" />
      </Center>
    );
  const first = list.data.results.dossiers[0];
  if (first)
    return (
      <LinkedDossier id={first.id} hiddenLinkIds={props.hiddenLinkIds} environmentId={props.environmentId} />
    );
  return props.canCreate ? <CreateLinked {...props} /> : null;
}

function LinkedDossier(props: { id: number; hiddenLinkIds: readonly number[]; environmentId: number }) {
  const { t } = useTranslation();
  const detail = useQuery({
    queryKey: dossierKeys.detail(props.id, null),
    queryFn: ({ signal }) => fetchDossier(props.id, null, signal),
  });
  const { layout } = useEntityLayout(detail.data?.dossier.def_dossier_id ?? 0);
  const sources = useFieldSources(layout.options);
  if (!detail.data) return <Loader size="sm" />;
  // the first tab's items, as a quick view shows them
  const firstPosition = detail.data.items[0]?.display_position_id;
  const items = detail.data.items.filter((item) => item.display_position_id === firstPosition);
  return (
    <Stack gap="xs" data-testid="embedded-single-dossier" data-dossier-id={props.id}>
      <DossierForm
        items={items}
        mode="show"
        values={detailValues(detail.data)}
        conditions={layout.settings.conditions}
        sources={sources}
        hiddenLinkIds={props.hiddenLinkIds}
        dossier={{ id: props.id, environmentId: props.environmentId, summary: detail.data.dossier.summary }}
        testId="embedded-single-form"
      />
      <Group justify="flex-end">
        <Anchor component={Link} to={`/contentdossier/${props.id}`} data-testid="embedded-single-open">
          {t('embedded.open', { name: detail.data.dossier.summary || `#${props.id}` })}
        </Anchor>
      </Group>
    </Stack>
  );
}

function CreateLinked(props: Props) {
  const { t } = useTranslation();
  const { layout, loading, items, values, submitter, formProps } = useNewDossierForm(
    props.entityId,
    () => props.onSaved(),
    {
      firstSectionOnly: true,
      context: { embedded: { parentId: props.parentDossierId, linkId: props.linkId } },
      prefill: props.prefill,
    },
  );
  const sources = useFieldSources(layout.options);
  if (loading) return <Loader size="sm" />;
  return (
    <Stack gap="xs" data-testid="embedded-single-create">
      <DossierForm
        items={items}
        {...formProps}
        sources={sources}
        hiddenLinkIds={props.hiddenLinkIds}
        testId="embedded-single-create-form"
      />
      <Group justify="flex-end">
        <Button
          onClick={() => void submitter.submit(values)}
          loading={submitter.saving}
          data-testid="embedded-single-add"
        >
          {t('dossier.add')}
        </Button>
      </Group>
      <ExistingMatchesModal
        duplicates={submitter.duplicates}
        onClose={submitter.closeDuplicates}
        onIgnore={() => void submitter.submit(values, true)}
        onUse={() => submitter.closeDuplicates()}
        saving={submitter.saving}
      />
    </Stack>
  );
}
