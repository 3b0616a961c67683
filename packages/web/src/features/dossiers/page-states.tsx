import { Alert, Center, Loader } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/client';
import { errorMessage } from '../../api/errors';
import { NotFoundPage } from '../../app/not-found-page';

// Page-level states of the dossier screens (spec doc 2 section 2): 401 and 403 show the general
// not-allowed message, 404 the not-found page, anything else 'Something went wrong'.

export function PageLoading() {
  return (
    <Center py="xl" data-testid="dossier-loading">
      <Loader />
    </Center>
  );
}

export function PageError({ error }: { error: unknown }) {
  const { t } = useTranslation();
  if (isApiError(error, 404)) return <NotFoundPage />;
  if (isApiError(error, 401) || isApiError(error, 403))
    return (
      <Alert color="red" m="md" data-testid="dossier-not-allowed">
        {t('403_general_message')}
      </Alert>
    );
  console.error('Error loading dossier data', error);
  return (
    <Alert color="red" m="md" data-testid="dossier-error">
      {errorMessage(error, t)}
    </Alert>
  );
}
