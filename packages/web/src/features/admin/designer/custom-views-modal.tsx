import { displayCustomViewCreateSchema } from '@dossierbase/core';
import { Group, Modal, Select, Stack, Table, TextInput } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocale } from '../../../app/locale-provider';
import {
  createItem,
  entityName,
  useCustomViews,
  useEntities,
  useEnvironmentId,
  useRefreshAdmin,
} from '../admin-api';
import { type Errors, GeneralError, serverErrors, validate } from '../form-helpers';
import { SaveCancelButtons } from '../save-cancel-buttons';

/** The entity's custom views: lists them and adds one. */
export function CustomViewsModal({
  opened,
  onClose,
  defDossier,
}: {
  opened: boolean;
  onClose: () => void;
  defDossier: number;
}) {
  const { t } = useTranslation();
  const { locale } = useLocale();
  const environment = useEnvironmentId();
  const refresh = useRefreshAdmin();
  const { data: views = [] } = useCustomViews(defDossier);
  const { data: entities = [] } = useEntities();
  const [viewName, setViewName] = useState('');
  const [entity, setEntity] = useState<string | null>(String(defDossier));
  const [errors, setErrors] = useState<Errors>({});
  useEffect(() => {
    if (opened) {
      setViewName('');
      setEntity(String(defDossier));
      setErrors({});
    }
  }, [opened, defDossier]);

  const save = async () => {
    const body = { environment, defDossier: Number(entity), viewName: viewName.trim() };
    const invalid = validate(displayCustomViewCreateSchema, body, t);
    if (invalid) return setErrors(invalid);
    try {
      await createItem('displaycustomview', body);
      await refresh();
      setViewName('');
    } catch (error) {
      setErrors(serverErrors(error, t));
    }
  };

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('admin.designer.custom_views')}
      data-testid="custom-views-modal"
    >
      <Stack>
        <Table>
          <Table.Tbody>
            {views.map((view) => (
              <Table.Tr key={view.id}>
                <Table.Td>{view.view_name}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        <GeneralError errors={errors} />
        <TextInput
          label={t('admin.name')}
          value={viewName}
          onChange={(event) => setViewName(event.currentTarget.value)}
          error={errors.viewName}
          data-testid="custom-view-name"
        />
        <Select
          label={t('admin.entity')}
          searchable
          data={entities.map((e) => ({ value: String(e.id), label: entityName(e, locale) }))}
          value={entity}
          onChange={setEntity}
          error={errors.defDossier}
        />
        <Group justify="flex-end">
          <SaveCancelButtons
            onCancel={onClose}
            onSave={save}
            saveTestId="custom-view-save"
            cancelLabel={t('common.close')}
          />
        </Group>
      </Stack>
    </Modal>
  );
}
