import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { isApiError } from '../../api/client';
import { notifyFailure } from '../../api/errors';
import { joinEnvironmentRoom } from '../../app/realtime';
import { translateMessage } from '../../i18n/messages';
import { takeReferer } from '../auth/session';
import { environmentStore } from './environment-store';
import { getEnvironment } from './environments-api';

export function useOpenEnvironment() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [openingId, setOpeningId] = useState<number | null>(null);

  const open = async (id: number) => {
    setOpeningId(id);
    try {
      const environment = await getEnvironment(id);
      // Reads cached for the previous environment must not leak into this one.
      queryClient.removeQueries({
        predicate: (query) => !['config', 'environment'].includes(String(query.queryKey[0])),
      });
      environmentStore.set(environment);
      joinEnvironmentRoom(environment.id);
      // A page asked for before signing in (a deep link) opens now that an environment is chosen.
      navigate(takeReferer() ?? '/');
      window.scrollTo(0, 0);
    } catch (error) {
      let message = t('common.something_went_wrong');
      if (isApiError(error, 403)) message = translateMessage(t, error.serverMessage);
      else if (isApiError(error, 404)) message = t('environment.not_found');
      notifyFailure(message);
    } finally {
      setOpeningId(null);
    }
  };

  return { open, openingId };
}
