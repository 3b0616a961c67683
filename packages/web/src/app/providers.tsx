import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { MantineProvider, mergeThemeOverrides } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import { QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, useMemo } from 'react';
import { I18nextProvider, useTranslation } from 'react-i18next';
import { isApiError } from '../api/client';
import { clearTokenData } from '../features/auth/session';
import { i18n } from '../i18n';
import { LocaleProvider } from './locale-provider';
import { contrastVariables, theme } from './theme';

export const queryClient = new QueryClient({
  queryCache: new QueryCache({
    // A read answered 401 means the server session is gone; the route guard then sends us to /login.
    onError: (error) => {
      if (isApiError(error, 401)) clearTokenData();
    },
  }),
  defaultOptions: {
    queries: {
      staleTime: 300_000,
      refetchOnWindowFocus: false,
      retry: (count, error) => !isApiError(error) && count < 2,
    },
  },
});

export function Providers({ children }: { children: ReactNode }) {
  return (
    <I18nextProvider i18n={i18n}>
      <ThemeProvider>
        <QueryClientProvider client={queryClient}>
          <ModalsProvider>
            {/* the toasts' containers are live regions: a screen reader reads each toast out (api/errors.ts) */}
            <Notifications autoClose={2500} position="top-right" aria-live="polite" />
            <LocaleProvider>{children}</LocaleProvider>
          </ModalsProvider>
        </QueryClientProvider>
      </ThemeProvider>
    </I18nextProvider>
  );
}

/** The theme, with the names of Mantine's icon-only buttons (the close button of modals and toasts) in the user's language. */
function ThemeProvider({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const named = useMemo(
    () =>
      mergeThemeOverrides(theme, {
        components: {
          CloseButton: { defaultProps: { 'aria-label': t('common.close') } },
        },
      }),
    [t],
  );
  return (
    <MantineProvider theme={named} cssVariablesResolver={contrastVariables}>
      {children}
    </MantineProvider>
  );
}
