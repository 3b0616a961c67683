import type { DossierDetail, EntityAbilities } from '@dossierbase/core';
import { Button, Group, Menu, Modal, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import {
  IconArchive,
  IconArchiveOff,
  IconChevronDown,
  IconLink,
  IconShare,
  IconTrash,
  IconVectorBezier2,
} from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { actionErrorMessage, notifyFailure, notifySuccess } from '../../../api/errors';
import { isEnvironmentAdmin, useEnvironment } from '../../environments/environment-store';
import { deleteDossier, dossierKeys, setArchived } from '../dossier-api';
import { ExportButton } from '../export/export-dialog';

// The dossier action bar (spec doc 3 section 2): Share (Copy link), archive with confirmation or
// de-archive, the extra actions the page passes (log, export), the field designer for admins and
// delete with confirmation. Each is shown only with the permission the spec names (the server's
// abilities); the server refuses them all the same without it.

/** The address a copied link opens: the dossier on the tab the user is looking at. */
export const dossierLink = (id: number, tab: number | null) =>
  `${window.location.origin}/contentdossier/${id}${tab === null ? '' : `?selectedTab=${tab}`}`;

export function DossierActionBar({
  detail,
  abilities,
  selectedTab,
  extra,
}: {
  detail: DossierDetail;
  abilities: EntityAbilities;
  selectedTab: number | null;
  extra?: ReactNode;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const environment = useEnvironment();
  const { dossier } = detail;
  const [archiveOpened, archiveModal] = useDisclosure(false);
  const [deleteOpened, deleteModal] = useDisclosure(false);

  const archive = useMutation({
    mutationFn: (on: boolean) => setArchived(dossier.id, on),
    onSuccess: (_, on) => {
      archiveModal.close();
      notifySuccess(t(on ? 'dossier.actions.archived' : 'dossier.actions.dearchived'));
      void queryClient.invalidateQueries({ queryKey: dossierKeys.all });
    },
    onError: (error) => notifyFailure(actionErrorMessage(error, t), t('common.error')),
  });
  const remove = useMutation({
    mutationFn: () => deleteDossier(dossier.id),
    onSuccess: () => {
      deleteModal.close();
      notifySuccess(t('dossier.actions.deleted'));
      queryClient.removeQueries({ queryKey: dossierKeys.detail(dossier.id, null) });
      navigate(`/defdossier/${dossier.def_dossier_id}`);
    },
    onError: (error) => notifyFailure(actionErrorMessage(error, t), t('common.error')),
  });

  const copyLink = async () => {
    try {
      await navigator.clipboard.writeText(dossierLink(dossier.id, selectedTab));
      notifySuccess(t('dossier.actions.link_copied'));
    } catch {
      notifyFailure(t('dossier.actions.copy_failed'), t('common.error'));
    }
  };

  return (
    <Group gap="xs" data-testid="dossier-action-bar">
      <Menu position="bottom-start" withinPortal>
        <Menu.Target>
          <Button
            variant="default"
            leftSection={<IconShare size={16} />}
            rightSection={<IconChevronDown size={16} />}
            data-testid="dossier-share"
          >
            {t('dossier.actions.share')}
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Item
            leftSection={<IconLink size={16} />}
            onClick={() => void copyLink()}
            data-testid="dossier-copy-link"
          >
            {t('dossier.actions.copy_link')}
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
      {abilities.canArchive ? (
        dossier.archived ? (
          <Button
            variant="default"
            leftSection={<IconArchiveOff size={16} />}
            loading={archive.isPending}
            onClick={() => archive.mutate(false)}
            data-testid="dossier-dearchive"
          >
            {t('dossier.actions.dearchive')}
          </Button>
        ) : (
          <Button
            variant="default"
            leftSection={<IconArchive size={16} />}
            onClick={archiveModal.open}
            data-testid="dossier-archive"
          >
            {t('dossier.actions.archive')}
          </Button>
        )
      ) : null}
      <ExportButton
        entityId={dossier.def_dossier_id}
        abilities={abilities}
        target={{ type: 'dossier', id: dossier.id }}
        testId="dossier-export"
      />
      {extra}
      {isEnvironmentAdmin(environment) ? (
        <Button
          variant="default"
          component={Link}
          to={`/fieldeditor/${dossier.def_dossier_id}`}
          leftSection={<IconVectorBezier2 size={16} />}
          data-testid="dossier-field-designer"
        >
          {t('dossier.actions.field_designer')}
        </Button>
      ) : null}
      {abilities.canDelete ? (
        <Button
          color="red"
          variant="light"
          leftSection={<IconTrash size={16} />}
          onClick={deleteModal.open}
          data-testid="dossier-delete"
        >
          {t('dossier.actions.delete')}
        </Button>
      ) : null}

      <Modal opened={archiveOpened} onClose={archiveModal.close} title={t('dossier.actions.archive_title')}>
        <Stack data-testid="dossier-archive-modal">
          <Text>{t('dossier.actions.archive_text')}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={archiveModal.close}>
              {t('common.cancel')}
            </Button>
            <Button
              loading={archive.isPending}
              onClick={() => archive.mutate(true)}
              data-testid="dossier-archive-confirm"
            >
              {t('dossier.actions.archive')}
            </Button>
          </Group>
        </Stack>
      </Modal>
      <Modal opened={deleteOpened} onClose={deleteModal.close} title={t('dossier.actions.delete_title')}>
        <Stack data-testid="dossier-delete-modal">
          <Text>{t('dossier.actions.delete_text', { name: dossier.summary || `#${dossier.id}` })}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={deleteModal.close}>
              {t('common.cancel')}
            </Button>
            <Button
              color="red"
              loading={remove.isPending}
              onClick={() => remove.mutate()}
              data-testid="dossier-delete-confirm"
            >
              {t('dossier.actions.delete')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Group>
  );
}
