import { Anchor, Group, Loader, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconHelp } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../api/errors';
import { HelpContact } from '../../app/help-contact';
import { useEnvironment } from '../environments/environment-store';
import { ColleagueCard } from './colleague-card';
import { useContact } from './people-api';

// /contact: whom to ask for help: the environment's help desk, the platform's, and the admins.
export function ContactPage() {
  const { t } = useTranslation();
  const environment = useEnvironment();
  const contact = useContact(environment?.id ?? 0);

  if (contact.isPending) return <Loader />;
  if (!contact.data) return <Text>{errorMessage(contact.error, t)}</Text>;
  const { help_contact, environment_contact, admins } = contact.data;

  return (
    <Stack data-testid="contact-page">
      <Title order={1} size="h3">
        {t('contact.title')}
      </Title>
      <Paper withBorder p="lg" data-testid="contact-help">
        <Stack gap="sm">
          <Group gap="xs">
            <IconHelp size={20} />
            <Title order={2} size="h4">
              {t('contact.help_title')}
            </Title>
          </Group>
          {environment_contact && (
            <Text data-testid="contact-environment">
              {t('contact.environment_help', { environment: environment?.name })}:{' '}
              <HelpContact contact={environment_contact} />
            </Text>
          )}
          {help_contact && (
            <Text data-testid="contact-platform">
              {t('contact.platform_help')}: <HelpContact contact={help_contact} />
            </Text>
          )}
        </Stack>
      </Paper>
      <Stack gap="sm">
        <Title order={2} size="h4">
          {t('contact.admins_title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('contact.admins_text', { environment: environment?.name })}
        </Text>
        {admins.length === 0 ? (
          <Text data-testid="contact-no-admins">{t('contact.no_admins')}</Text>
        ) : (
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
            {admins.map((admin) => (
              <ColleagueCard key={admin.id} member={admin} testId="contact-admin">
                {admin.email && (
                  <Anchor href={`mailto:${admin.email}`} size="sm" truncate data-testid="contact-admin-email">
                    {admin.email}
                  </Anchor>
                )}
              </ColleagueCard>
            ))}
          </SimpleGrid>
        )}
      </Stack>
    </Stack>
  );
}
