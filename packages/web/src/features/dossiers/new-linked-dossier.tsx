import type { DisplayItem, LinkedDossier } from '@dossierbase/core';
import { Button, Group, Loader, Modal, Stack } from '@mantine/core';
import { useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { useFieldLocale } from '../../fields/shared';
import { useTokenData } from '../auth/session';
import { createDossier, type DossierValues, fetchDossier } from './dossier-api';
import { DossierForm } from './dossier-form';
import { ExistingMatchesModal } from './existing-matches-modal';
import { detailTabs, initialValues, isEditable } from './form-logic';
import { useDossierSubmit } from './use-dossier-submit';
import { positionName, useEntityLayout, useEntityNames } from './use-entity-layout';
import { useFieldSources } from './use-field-sources';

// The link picker's 'New' button (spec doc 2, "New linked dossier modal 'New {type}'"): a create
// form of the child entity in a modal; the new dossier is linked in the picker that asked. One host
// in the shell shows the modal for whichever picker asks.

interface Request {
  defDossier: number;
  resolve: (dossier: LinkedDossier | null) => void;
}

let current: Request | null = null;
const listeners = new Set<() => void>();
const emit = () => {
  for (const listener of listeners) listener();
};

/** Opens the modal for a new dossier of `defDossier`; resolves with it, or null when cancelled. */
export function openNewLinkedDossier(defDossier: number): Promise<LinkedDossier | null> {
  current?.resolve(null);
  return new Promise((resolve) => {
    current = { defDossier, resolve };
    emit();
  });
}

function finish(dossier: LinkedDossier | null) {
  current?.resolve(dossier);
  current = null;
  emit();
}

export function NewLinkedDossierHost() {
  const request = useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => current,
  );
  return request ? (
    <NewLinkedDossierModal key={request.defDossier} defDossier={request.defDossier} onDone={finish} />
  ) : null;
}

/** The saved (or chosen existing) dossier as the picker's value; null when it cannot be read. */
async function linkedDossier(id: number): Promise<LinkedDossier | null> {
  try {
    const { dossier } = await fetchDossier(id, null);
    return {
      id,
      summary: dossier.summary,
      def_dossier_id: dossier.def_dossier_id,
      archived: dossier.archived,
    };
  } catch {
    return null;
  }
}

function NewLinkedDossierModal(props: {
  defDossier: number;
  onDone: (dossier: LinkedDossier | null) => void;
}) {
  const { t } = useTranslation();
  const locale = useFieldLocale();
  const token = useTokenData();
  const names = useEntityNames(props.defDossier);
  const { layout, loading } = useEntityLayout(props.defDossier);
  const sources = useFieldSources(layout.options);
  const items = useMemo<DisplayItem[]>(() => {
    const all = layout.items ?? [];
    const [main] = detailTabs(layout.positions, all, (p) => positionName(p, locale));
    return main ? all.filter((item) => item.display_position_id === main.id && isEditable(item)) : [];
  }, [layout.items, layout.positions, locale]);
  const start = useMemo(
    () => initialValues(items, layout.options, token?.user_id),
    [items, layout.options, token],
  );
  const [values, setValues] = useState<DossierValues>({});
  useEffect(() => setValues(start), [start]);
  const submitter = useDossierSubmit({
    kind: 'create',
    items,
    conditions: layout.settings.conditions,
    send: (payload, ignore) =>
      createDossier({ defDossier: props.defDossier, values: payload, ignore_existing: ignore }),
    onSaved: (id) => void linkedDossier(id).then(props.onDone),
  });

  return (
    <Modal
      opened
      onClose={() => props.onDone(null)}
      size="xl"
      title={t('dossier.new_title', { name: names.singular || names.name })}
      data-testid="new-linked-dossier-modal"
    >
      {loading ? (
        <Loader />
      ) : (
        <Stack>
          <DossierForm
            items={items}
            mode="edit"
            values={values}
            onChange={(key, value) => {
              submitter.clearError(key);
              setValues((v) => ({ ...v, [key]: value }));
            }}
            conditions={layout.settings.conditions}
            errors={submitter.errors}
            sources={sources}
            disabled={submitter.saving}
            testId="new-linked-dossier-form"
          />
          <Group justify="flex-end">
            <Button
              variant="default"
              onClick={() => props.onDone(null)}
              data-testid="new-linked-dossier-cancel"
            >
              {t('common.cancel')}
            </Button>
            <Button
              onClick={() => void submitter.submit(values)}
              loading={submitter.saving}
              data-testid="new-linked-dossier-add"
            >
              {t('dossier.add')}
            </Button>
          </Group>
        </Stack>
      )}
      <ExistingMatchesModal
        duplicates={submitter.duplicates}
        onClose={submitter.closeDuplicates}
        onIgnore={() => void submitter.submit(values, true)}
        onUse={(id) => void linkedDossier(id).then(props.onDone)}
        saving={submitter.saving}
      />
    </Modal>
  );
}
