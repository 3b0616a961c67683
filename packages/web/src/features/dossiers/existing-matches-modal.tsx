import type { DuplicateBody } from '@dossierbase/core';
import { Anchor, Button, Group, Modal, Stack, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

// 'Already existing items': the dossiers the server found with the same unique value (a 409).
// With a warning constraint the user may save anyway or use one of them; otherwise only shown.

interface Props {
  duplicates: DuplicateBody | null;
  onClose: () => void;
  onIgnore: () => void;
  onUse: (id: number) => void;
  saving?: boolean;
}

export function ExistingMatchesModal({ duplicates, onClose, onIgnore, onUse, saving }: Props) {
  const { t } = useTranslation();
  const warning = duplicates?.constraint_type === 'warning';
  return (
    <Modal
      opened={duplicates !== null}
      onClose={onClose}
      title={t('dossier.existing_title')}
      size="lg"
      data-testid="existing-matches-modal"
    >
      <Stack>
        <Text size="sm">{t('dossier.existing_description')}</Text>
        <Table striped withTableBorder>
          <Table.Tbody>
            {(duplicates?.existing ?? []).map((match) => (
              <Table.Tr key={match.id} data-testid={`existing-match-${match.id}`}>
                <Table.Td>
                  <Anchor href={`/contentdossier/${match.id}`} target="_blank" rel="noopener">
                    {match.summary || t('dossier.no_summary')}
                  </Anchor>
                </Table.Td>
                {warning ? (
                  <Table.Td w={1}>
                    <Button
                      size="xs"
                      variant="light"
                      onClick={() => onUse(match.id)}
                      data-testid={`existing-use-${match.id}`}
                    >
                      {t('dossier.use_this')}
                    </Button>
                  </Table.Td>
                ) : null}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} data-testid="existing-close">
            {t('common.close')}
          </Button>
          {warning ? (
            <Button color="orange" onClick={onIgnore} loading={saving} data-testid="existing-ignore">
              {t('dossier.ignore_and_save')}
            </Button>
          ) : null}
        </Group>
      </Stack>
    </Modal>
  );
}
