import type { Condition, DisplayItem, DossierDetail } from '@dossierbase/core';
import { Button, Group, Stack } from '@mantine/core';
import { IconPencil } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { FieldSources } from '../../fields/types';
import { detailValues } from './detail/dossier-data';
import { type DossierValues, dossierKeys, fetchDossier, updateDossier } from './dossier-api';
import { DossierForm } from './dossier-form';
import { ExistingMatchesModal } from './existing-matches-modal';
import { type DossierTab, hasChanges } from './form-logic';
import { LeaveModal, leavesPathOrQuery, useLeaveGuard } from './leave-guard';
import { PageError, PageLoading } from './page-states';
import { useDossierSubmit } from './use-dossier-submit';

// One tab of the detail page: its position's items from GET /contentdossier/{id}?displayPosition=,
// in show mode, or in edit mode with Save, Save and close and Cancel (PUT with the same position).

interface Props {
  dossierId: number;
  tab: DossierTab;
  /** the whole dossier (every tab's values), for the conditions */
  overview: DossierDetail;
  canEdit: boolean;
  conditions: readonly Condition[];
  sources: (item: DisplayItem) => FieldSources;
}

export function DetailTab({ dossierId, tab, overview, canEdit, conditions, sources }: Props) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const detail = useQuery({
    queryKey: dossierKeys.detail(dossierId, tab.id),
    queryFn: ({ signal }) => fetchDossier(dossierId, tab.id, signal),
  });
  const [values, setValues] = useState<DossierValues | null>(null);
  // what the form held when editing began or was last saved: changes since then ask before leaving
  const [start, setStart] = useState<DossierValues>({});
  const [confirmCancel, setConfirmCancel] = useState(false);
  const editing = values !== null && canEdit;
  const items = detail.data?.items ?? [];
  const dirty = editing && hasChanges(items, start, values);
  // Another tab (?selectedTab) or another page leaves edit mode too.
  const guard = useLeaveGuard(dirty, leavesPathOrQuery);

  const submitter = useDossierSubmit({
    kind: 'edit',
    items,
    conditions,
    contextValues: overview.content,
    send: (payload, ignore) => updateDossier(dossierId, tab.id, { values: payload, ignore_existing: ignore }),
    onSaved: () => void queryClient.invalidateQueries({ queryKey: dossierKeys.all }),
  });

  if (detail.isPending) return <PageLoading />;
  if (detail.error) return <PageError error={detail.error} />;

  const shown = detailValues(detail.data);
  const save = async (close: boolean, ignoreExisting = false) => {
    if (!values) return;
    const saved = await submitter.submit(values, ignoreExisting);
    if (saved) setStart(values);
    if (saved && close) setValues(null);
  };
  const cancel = () => {
    setConfirmCancel(false);
    submitter.reset();
    setValues(null);
  };
  const edit = () => {
    setStart(shown);
    setValues(shown);
  };

  return (
    <Stack data-testid={`dossier-tab-panel-${tab.id}`}>
      <DossierForm
        items={items}
        mode={editing ? 'edit' : 'show'}
        values={editing ? values : shown}
        onChange={(key, value) => {
          submitter.clearError(key);
          setValues((current) => ({ ...current, [key]: value }));
        }}
        conditionValues={overview.content}
        conditions={conditions}
        errors={editing ? submitter.errors : undefined}
        sources={sources}
        dossier={{
          id: dossierId,
          environmentId: overview.dossier.environment_id,
          summary: overview.dossier.summary,
        }}
        testId={`dossier-form-${tab.id}`}
      />
      {canEdit ? (
        <Group justify="flex-end">
          {editing ? (
            <>
              <Button
                variant="default"
                onClick={() => (dirty ? setConfirmCancel(true) : cancel())}
                data-testid="dossier-cancel"
              >
                {t('common.cancel')}
              </Button>
              <Button
                variant="light"
                onClick={() => void save(true)}
                loading={submitter.saving}
                data-testid="dossier-save-close"
              >
                {t('dossier.save_close')}
              </Button>
              <Button onClick={() => void save(false)} loading={submitter.saving} data-testid="dossier-save">
                {t('dossier.save')}
              </Button>
            </>
          ) : (
            <Button leftSection={<IconPencil size={16} />} onClick={edit} data-testid="dossier-edit">
              {t('dossier.edit')}
            </Button>
          )}
        </Group>
      ) : null}
      <ExistingMatchesModal
        duplicates={submitter.duplicates}
        onClose={submitter.closeDuplicates}
        onIgnore={() => void save(false, true)}
        onUse={(id) => {
          cancel();
          guard.allowLeaving();
          navigate(`/contentdossier/${id}`);
        }}
        saving={submitter.saving}
      />
      <LeaveModal
        opened={guard.blocked || confirmCancel}
        name={overview.dossier.summary || `#${overview.dossier.id}`}
        onStay={() => (confirmCancel ? setConfirmCancel(false) : guard.stay())}
        onLeave={() => (confirmCancel ? cancel() : guard.leave())}
      />
    </Stack>
  );
}
