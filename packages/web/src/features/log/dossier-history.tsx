import { Button, Loader, Modal, Stack } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconHistory } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AnswerPager } from '../../app/pager';
import { useLog } from './log-api';
import { LogEntries } from './log-entries';

// The History button of a dossier page (for holders of dossierlog): the dossier's change log in a modal.

const PAGE_SIZE = 20;

export function DossierHistory({ dossierId, environmentId }: { dossierId: number; environmentId: number }) {
  const { t } = useTranslation();
  const [opened, { open, close }] = useDisclosure(false);
  const [page, setPage] = useState(0);
  const log = useLog(
    opened ? { environment: environmentId, dossier: dossierId, page, limit: PAGE_SIZE } : null,
  );
  return (
    <>
      <Button
        variant="default"
        leftSection={<IconHistory size={16} />}
        onClick={open}
        data-testid="dossier-history"
      >
        {t('log.history')}
      </Button>
      <Modal opened={opened} onClose={close} title={t('log.history_title')} size="xl">
        <Stack data-testid="dossier-history-modal">
          {log.isPending ? <Loader /> : <LogEntries entries={log.data?.results ?? []} withDossier={false} />}
          <AnswerPager pager={log.data?.pager} page={page} onPage={setPage} />
        </Stack>
      </Modal>
    </>
  );
}
