import { Alert, Button, Group, Loader, Modal, Stack } from '@mantine/core';
import { IconInfoCircle, IconRepeat } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DossierForm } from '../dossier-form';
import { ExistingMatchesModal } from '../existing-matches-modal';
import { dateItems, RepeatModal } from '../repeat-modal';
import { useEntityNames } from '../use-entity-layout';
import { useFieldSources } from '../use-field-sources';
import { useNewDossierForm } from '../use-new-dossier-form';
import type { LimitLinkPrefill } from './view-logic';

// The embedded list's Add (a large modal 'New' plus the child type with its create form) and
// multi-add (the same form with an info banner, saved as a series of dossiers, one per date); each
// new dossier is linked to the parent (embedded, linkId on the create call).

interface Props {
  entityId: number;
  parentDossierId: number;
  linkId: number;
  multi: boolean;
  /** the link back to the parent, not shown in the form */
  hiddenLinkIds: readonly number[];
  /** limit_embedded_link: that link starts holding the parent */
  prefill: LimitLinkPrefill | null;
  onClose: () => void;
  onSaved: () => void;
}

export function EmbeddedAddModal(props: Props) {
  const { t } = useTranslation();
  const names = useEntityNames(props.entityId);
  const embedded = { parentId: props.parentDossierId, linkId: props.linkId };
  const { layout, loading, items, values, submitter, formProps } = useNewDossierForm(
    props.entityId,
    () => props.onSaved(),
    { context: { embedded }, prefill: props.prefill },
  );
  const sources = useFieldSources(layout.options);
  const [repeating, setRepeating] = useState(false);
  const canRepeat = dateItems(items).length > 0;

  return (
    <Modal
      opened
      onClose={props.onClose}
      size="xl"
      title={t('dossier.new_title', { name: names.singular || names.name })}
      data-testid="embedded-add-modal"
    >
      {loading ? (
        <Loader />
      ) : (
        <Stack>
          {props.multi ? (
            <Alert icon={<IconInfoCircle size={18} />} data-testid="embedded-multi-info">
              {t('embedded.multi_info')}
            </Alert>
          ) : null}
          <DossierForm
            items={items}
            {...formProps}
            sources={sources}
            hiddenLinkIds={props.hiddenLinkIds}
            testId="embedded-add-form"
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={props.onClose} data-testid="embedded-add-cancel">
              {t('common.cancel')}
            </Button>
            {props.multi ? (
              <Button
                leftSection={<IconRepeat size={16} />}
                onClick={() => setRepeating(true)}
                disabled={!canRepeat}
                data-testid="embedded-multi-repeat"
              >
                {t('series.open')}
              </Button>
            ) : (
              <Button
                onClick={() => void submitter.submit(values)}
                loading={submitter.saving}
                data-testid="embedded-add-save"
              >
                {t('dossier.add')}
              </Button>
            )}
          </Group>
          {props.multi && !canRepeat ? (
            <Alert color="yellow" data-testid="embedded-multi-no-date">
              {t('embedded.multi_no_date')}
            </Alert>
          ) : null}
        </Stack>
      )}
      <ExistingMatchesModal
        duplicates={submitter.duplicates}
        onClose={submitter.closeDuplicates}
        onIgnore={() => void submitter.submit(values, true)}
        onUse={() => props.onClose()}
        saving={submitter.saving}
      />
      <RepeatModal
        opened={repeating}
        defDossier={props.entityId}
        items={items}
        conditions={layout.settings.conditions}
        values={values}
        embedded={embedded}
        onClose={() => setRepeating(false)}
        onSaved={() => props.onSaved()}
      />
    </Modal>
  );
}
