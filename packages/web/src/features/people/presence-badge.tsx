import type { SeenPresence } from '@dossierbase/core';
import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PRESENCE_COLORS } from './user-avatar';

/** A colleague's presence in words, beside the dot on their avatar. */
export function PresenceBadge({ presence }: { presence: SeenPresence }) {
  const { t } = useTranslation();
  return (
    <Badge
      variant="light"
      color={PRESENCE_COLORS[presence]}
      data-testid="presence-badge"
      data-presence={presence}
    >
      {t(`presence.${presence}`)}
    </Badge>
  );
}
