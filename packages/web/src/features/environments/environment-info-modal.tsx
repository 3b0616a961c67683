import type { Environment } from '@dossierbase/core';
import { Button, Group, Modal, Stack, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../app/format';

interface EnvironmentInfoModalProps {
  environment: Environment | null;
  opening: boolean;
  onClose: () => void;
  onOpen: (id: number) => void;
}

export function EnvironmentInfoModal({ environment, opening, onClose, onOpen }: EnvironmentInfoModalProps) {
  const { t } = useTranslation();
  return (
    <Modal opened={environment !== null} onClose={onClose} title={environment?.name} size="lg" centered>
      {environment && (
        <Stack data-testid="environment-info-modal">
          <Table variant="vertical" withTableBorder>
            <Table.Tbody>
              <Table.Tr>
                <Table.Th w={180}>{t('environment.name')}</Table.Th>
                <Table.Td data-testid="environment-info-name">{environment.name}</Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>{t('environment.description')}</Table.Th>
                <Table.Td style={{ whiteSpace: 'pre-wrap' }}>{environment.description}</Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>{t('environment.created_by')}</Table.Th>
                <Table.Td>{environment.created_by?.username ?? '-'}</Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>{t('environment.created_at')}</Table.Th>
                <Table.Td>{formatDate(environment.created_at)}</Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>{t('environment.modified')}</Table.Th>
                <Table.Td>
                  {t('environment.modified_on_by', {
                    date: formatDate(environment.modified_at),
                    user: environment.modified_by?.username ?? '-',
                  })}
                </Table.Td>
              </Table.Tr>
            </Table.Tbody>
          </Table>
          {!environment.active && (
            <Text size="sm" c="dimmed">
              {t('environment.inactive')}
            </Text>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common.close')}
            </Button>
            <Button
              disabled={!environment.active}
              loading={opening}
              onClick={() => onOpen(environment.id)}
              data-testid="environment-info-open"
            >
              {t('environment.open')}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
