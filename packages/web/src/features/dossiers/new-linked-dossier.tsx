import type { LinkedDossier } from '@dossierbase/core';
import { Button, Group, Loader, Modal, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { fetchDossier } from './dossier-api';
import { DossierForm } from './dossier-form';
import { ExistingMatchesModal } from './existing-matches-modal';
import { createModalRequest } from './modal-request';
import { useEntityNames } from './use-entity-layout';
import { useFieldSources } from './use-field-sources';
import { useNewDossierForm } from './use-new-dossier-form';

// The link picker's 'New' button (spec doc 2, "New linked dossier modal 'New {type}'"): a create
// form of the child entity in a modal; the new dossier is linked in the picker that asked. One host
// in the shell shows the modal for whichever picker asks.

const newLinked = createModalRequest<{ defDossier: number }, LinkedDossier | null>(null);

/** Opens the modal for a new dossier of `defDossier`; resolves with it, or null when cancelled. */
export const openNewLinkedDossier = (defDossier: number) => newLinked.open({ defDossier });

export function NewLinkedDossierHost() {
  const request = newLinked.useCurrent();
  return request ? (
    <NewLinkedDossierModal
      key={request.defDossier}
      defDossier={request.defDossier}
      onDone={newLinked.finish}
    />
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
  const names = useEntityNames(props.defDossier);
  // the first tab only: the modal is a quick form, the dossier page holds the rest
  const { layout, loading, items, values, submitter, formProps } = useNewDossierForm(
    props.defDossier,
    (id) => void linkedDossier(id).then(props.onDone),
    { firstSectionOnly: true },
  );
  const sources = useFieldSources(layout.options);

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
          <DossierForm items={items} {...formProps} sources={sources} testId="new-linked-dossier-form" />
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
