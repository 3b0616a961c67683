import { Box, Center, Paper, Stack, Text, Title } from '@mantine/core';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { pickBackground } from './backgrounds';

export function AuthLayout({
  title,
  children,
  testId,
}: {
  title: string;
  children: ReactNode;
  testId?: string;
}) {
  const { t } = useTranslation();
  // Chosen once per load, as the spec asks for a random background.
  const [background] = useState(pickBackground);
  return (
    <Box
      mih="100vh"
      style={{ background: background.css }}
      data-testid="auth-layout"
      data-background={background.name}
    >
      <Center mih="100vh" p="md">
        <Paper shadow="xl" p="xl" radius="lg" w="100%" maw={420} data-testid={testId}>
          <Stack gap="md">
            <Stack gap={2}>
              <Text fw={800} fz="lg" c="indigo">
                {t('app.name')}
              </Text>
              <Title order={1} size="h2" data-testid="auth-title">
                {title}
              </Title>
            </Stack>
            {children}
          </Stack>
        </Paper>
      </Center>
    </Box>
  );
}
