import type { LogEntry } from '@dossierbase/core';
import { Anchor, List, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDate } from '../../app/format';
import { logValueText } from './log-api';

// The entries of a change log as a table: when, who, what happened to which dossier, and per changed
// item its old and new value. `withDossier` adds the dossier column (the environment's log).

/** A value as the field type displays it (the server's text), else as stored; '–' when empty. */
const valueShown = (text: string | undefined, value: unknown) =>
  text === undefined ? logValueText(value) : text || '–';

export function LogEntries({ entries, withDossier }: { entries: LogEntry[]; withDossier: boolean }) {
  const { t } = useTranslation();
  if (entries.length === 0)
    return (
      <Text c="dimmed" data-testid="log-empty">
        {t('log.empty')}
      </Text>
    );
  return (
    <Table.ScrollContainer minWidth={600}>
      <Table striped data-testid="log-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('log.when')}</Table.Th>
            <Table.Th>{t('log.user')}</Table.Th>
            <Table.Th>{t('log.type')}</Table.Th>
            {withDossier && <Table.Th>{t('log.dossier')}</Table.Th>}
            <Table.Th>{t('log.changes')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {entries.map((entry) => (
            <Table.Tr key={entry.id} data-testid="log-row">
              <Table.Td>{formatDate(entry.created_at)}</Table.Td>
              <Table.Td>{entry.user?.username ?? '–'}</Table.Td>
              <Table.Td>
                <Text size="sm" fw={500}>
                  {t(`log.types.${entry.type}`)}
                </Text>
              </Table.Td>
              {withDossier && (
                <Table.Td>
                  <Anchor component={Link} to={`/contentdossier/${entry.dossier.id}`}>
                    {entry.dossier.summary || `#${entry.dossier.id}`}
                  </Anchor>
                </Table.Td>
              )}
              <Table.Td>
                {entry.changes.length === 0 ? (
                  '–'
                ) : (
                  <List size="sm" listStyleType="none" spacing={2}>
                    {entry.changes.map((change, index) => (
                      // a change has no id of its own; its place in the entry is stable
                      // biome-ignore lint/suspicious/noArrayIndexKey: see above
                      <List.Item key={index} data-testid="log-change">
                        {t('log.change', {
                          name: change.name,
                          from: valueShown(change.old_text, change.old_value),
                          to: valueShown(change.new_text, change.new_value),
                        })}
                      </List.Item>
                    ))}
                  </List>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
