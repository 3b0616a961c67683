import type { DossierDetail } from '@dossierbase/core';
import { Alert, Button, Center, Group, Loader, Modal, Stack, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { errorMessage } from '../../api/errors';
import { useFieldLocale } from '../../fields/shared';
import { detailValues } from './detail/dossier-data';
import { type DossierValues, dossierKeys, fetchDossier, updateDossier } from './dossier-api';
import { DossierForm } from './dossier-form';
import { ExistingMatchesModal } from './existing-matches-modal';
import { detailTabs } from './form-logic';
import { knownUsers, storedUserIds } from './known-users';
import { useDossierSubmit } from './use-dossier-submit';
import { positionName, useEntityLayout } from './use-entity-layout';
import { useFieldSources } from './use-field-sources';

// The list's eye and pencil: the dossier's main position read-only, or editable (the spec's edit
// popup: size xl, title Edit plus the summary, Save and Cancel).

export interface QuickModalProps {
  dossierId: number | null;
  onClose: () => void;
  onSaved?: () => void;
}

/** The dossier (all its items) and its main content position's items. */
function useMainPosition(dossierId: number | null) {
  const locale = useFieldLocale();
  const detail = useQuery({
    queryKey: dossierKeys.detail(dossierId ?? 0, null),
    queryFn: ({ signal }) => fetchDossier(dossierId as number, null, signal),
    enabled: dossierId !== null,
  });
  const defDossier = detail.data?.dossier.def_dossier_id ?? 0;
  const { layout, loading } = useEntityLayout(defDossier);
  const main = useMemo(() => {
    if (!detail.data) return null;
    const tabs = detailTabs(layout.positions, detail.data.items, (p) => positionName(p, locale));
    const position = tabs.find((tab) => tab.type === 'main_content') ?? tabs[0];
    return position ? detail.data.items.filter((item) => item.display_position_id === position.id) : [];
  }, [detail.data, layout.positions, locale]);
  return {
    detail,
    layout,
    items: main,
    loading: detail.isPending || loading,
    positionId: mainId(detail.data, main),
  };
}

/** The users a quick modal's dossier names, and the ids its user fields hold. */
function useDossierUsers(data: DossierDetail | undefined) {
  const created = data?.dossier.created_by;
  const modified = data?.dossier.modified_by;
  const known = useMemo(() => knownUsers(created, modified), [created, modified]);
  const shown = useMemo(() => (data ? storedUserIds(data.items, [data.content]) : []), [data]);
  return [known, shown] as const;
}

const mainId = (data: DossierDetail | undefined, items: DossierDetail['items'] | null) =>
  data && items && items.length > 0 ? items[0].display_position_id : null;

function ModalBody({
  loading,
  error,
  children,
}: {
  loading: boolean;
  error: unknown;
  children: React.ReactNode;
}) {
  const { t } = useTranslation();
  if (error)
    return (
      <Alert color="red" data-testid="quick-modal-error">
        {errorMessage(error, t)}
      </Alert>
    );
  if (loading)
    return (
      <Center py="xl">
        <Loader />
      </Center>
    );
  return <>{children}</>;
}

export function QuickShowModal({ dossierId, onClose }: QuickModalProps) {
  const { t } = useTranslation();
  const { detail, layout, items, loading } = useMainPosition(dossierId);
  const sources = useFieldSources(layout.options, ...useDossierUsers(detail.data));
  const data = detail.data;
  return (
    <Modal
      opened={dossierId !== null}
      onClose={onClose}
      size="xl"
      title={data ? data.dossier.summary || `#${data.dossier.id}` : t('dossier.loading')}
      data-testid="quick-show-modal"
    >
      <ModalBody loading={loading} error={detail.error}>
        {data && items ? (
          <Stack>
            {data.dossier.archived ? (
              <Alert color="yellow" data-testid="quick-archived">
                {t('dossier.archived')}
              </Alert>
            ) : null}
            <DossierForm
              items={items}
              mode="show"
              values={detailValues(data)}
              conditions={layout.settings.conditions}
              sources={sources}
              testId="quick-show-form"
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={onClose} data-testid="quick-show-close">
                {t('common.close')}
              </Button>
              <Button
                component={Link}
                to={`/contentdossier/${data.dossier.id}`}
                data-testid="quick-show-open"
              >
                {t('dossier.open')}
              </Button>
            </Group>
          </Stack>
        ) : null}
      </ModalBody>
    </Modal>
  );
}

export function QuickEditModal({ dossierId, onClose, onSaved }: QuickModalProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { detail, layout, items, loading, positionId } = useMainPosition(dossierId);
  const sources = useFieldSources(layout.options, ...useDossierUsers(detail.data));
  const data = detail.data;
  const [values, setValues] = useState<DossierValues>({});
  useEffect(() => {
    if (data) setValues(data.content);
  }, [data]);
  const submitter = useDossierSubmit({
    kind: 'edit',
    items: items ?? [],
    conditions: layout.settings.conditions,
    contextValues: data?.content,
    send: (payload, ignore) =>
      updateDossier(dossierId as number, positionId, { values: payload, ignore_existing: ignore }),
    onSaved: () => {
      void queryClient.invalidateQueries({ queryKey: dossierKeys.all });
      onSaved?.();
      onClose();
    },
  });
  const close = () => {
    submitter.reset();
    onClose();
  };
  return (
    <Modal
      opened={dossierId !== null}
      onClose={close}
      size="xl"
      closeOnClickOutside={false}
      title={
        data
          ? t('dossier.edit_title', { summary: data.dossier.summary || `#${data.dossier.id}` })
          : t('dossier.loading')
      }
      data-testid="quick-edit-modal"
    >
      <ModalBody loading={loading} error={detail.error}>
        {data && items ? (
          <Stack>
            {data.dossier.archived ? (
              <Alert color="yellow" data-testid="quick-archived">
                {t('dossier.archived')}
              </Alert>
            ) : null}
            {submitter.forbidden ? <Alert color="red">{t('dossier_errors.permission_edit')}</Alert> : null}
            <DossierForm
              items={items}
              mode={data.dossier.archived ? 'show' : 'edit'}
              values={values}
              onChange={(key, value) => {
                submitter.clearError(key);
                setValues((current) => ({ ...current, [key]: value }));
              }}
              conditionValues={data.content}
              conditions={layout.settings.conditions}
              errors={submitter.errors}
              sources={sources}
              testId="quick-edit-form"
            />
            {items.length === 0 ? <Text c="dimmed">{t('dossier.no_fields')}</Text> : null}
            <Group justify="flex-end">
              <Button variant="default" onClick={close} data-testid="quick-edit-cancel">
                {t('common.cancel')}
              </Button>
              {!data.dossier.archived ? (
                <Button
                  onClick={() => void submitter.submit(values)}
                  loading={submitter.saving}
                  data-testid="quick-edit-save"
                >
                  {t('dossier.save')}
                </Button>
              ) : null}
            </Group>
            <ExistingMatchesModal
              duplicates={submitter.duplicates}
              onClose={submitter.closeDuplicates}
              onIgnore={() => void submitter.submit(values, true)}
              onUse={(id) => {
                close();
                navigate(`/contentdossier/${id}`);
              }}
              saving={submitter.saving}
            />
          </Stack>
        ) : null}
      </ModalBody>
    </Modal>
  );
}
