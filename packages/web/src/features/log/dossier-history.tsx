import { LOG_TYPES } from '@dossierbase/core';
import { Button, Group, Loader, Modal, MultiSelect, Select, Stack } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconHistory } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AnswerPager } from '../../app/pager';
import { useLog } from './log-api';
import { LogEntries } from './log-entries';

// The log button of a dossier page (for holders of dossierlog): the dossier's change log in a modal,
// filtered by type (several) and by user, with a pager (spec doc 3 section 2, Log modal).

const PAGE_SIZE = 20;

export function DossierHistory({ dossierId, environmentId }: { dossierId: number; environmentId: number }) {
  const { t } = useTranslation();
  const [opened, { open, close }] = useDisclosure(false);
  const [page, setPage] = useState(0);
  const [types, setTypes] = useState<string[]>([]);
  const [user, setUser] = useState<string | null>(null);
  const log = useLog(
    opened
      ? {
          environment: environmentId,
          dossier: dossierId,
          type: types.length ? types : undefined,
          user: user ? Number(user) : undefined,
          page,
          limit: PAGE_SIZE,
        }
      : null,
  );
  const filter =
    <T,>(set: (value: T) => void) =>
    (value: T) => {
      set(value);
      setPage(0);
    };
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
          <Group grow align="flex-end">
            <MultiSelect
              label={t('log.type')}
              placeholder={types.length ? undefined : t('log.any')}
              data={LOG_TYPES.map((type) => ({ value: type, label: t(`log.types.${type}`) }))}
              value={types}
              onChange={filter(setTypes)}
              clearable
              comboboxProps={{ withinPortal: true }}
              data-testid="dossier-history-type"
            />
            <Select
              label={t('log.user')}
              placeholder={t('log.any')}
              data={(log.data?.users ?? []).map((u) => ({ value: String(u.id), label: u.username }))}
              value={user}
              onChange={filter(setUser)}
              clearable
              searchable
              data-testid="dossier-history-user"
            />
          </Group>
          {log.isPending ? <Loader /> : <LogEntries entries={log.data?.results ?? []} withDossier={false} />}
          <AnswerPager pager={log.data?.pager} page={page} onPage={setPage} />
        </Stack>
      </Modal>
    </>
  );
}
