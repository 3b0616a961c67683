import type { Condition, DisplayItem, DossierDetail } from '@dossierbase/core';
import { Button, Group, Stack } from '@mantine/core';
import { IconPencil } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { FieldSources } from '../../fields/types';
import { type DossierValues, dossierKeys, fetchDossier, updateDossier } from './dossier-api';
import { DossierForm } from './dossier-form';
import { ExistingMatchesModal } from './existing-matches-modal';
import type { DossierTab } from './form-logic';
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
  const editing = values !== null && canEdit;
  const items = detail.data?.items ?? [];

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

  const save = async (close: boolean, ignoreExisting = false) => {
    if (!values) return;
    const saved = await submitter.submit(values, ignoreExisting);
    if (saved && close) setValues(null);
  };
  const cancel = () => {
    submitter.reset();
    setValues(null);
  };

  return (
    <Stack data-testid={`dossier-tab-panel-${tab.id}`}>
      <DossierForm
        items={items}
        mode={editing ? 'edit' : 'show'}
        values={editing ? values : detail.data.content}
        onChange={(key, value) => {
          submitter.clearError(key);
          setValues((current) => ({ ...current, [key]: value }));
        }}
        conditionValues={overview.content}
        conditions={conditions}
        errors={editing ? submitter.errors : undefined}
        sources={sources}
        testId={`dossier-form-${tab.id}`}
      />
      {canEdit ? (
        <Group justify="flex-end">
          {editing ? (
            <>
              <Button variant="default" onClick={cancel} data-testid="dossier-cancel">
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
            <Button
              leftSection={<IconPencil size={16} />}
              onClick={() => setValues({ ...detail.data.content })}
              data-testid="dossier-edit"
            >
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
          navigate(`/contentdossier/${id}`);
        }}
        saving={submitter.saving}
      />
    </Stack>
  );
}
