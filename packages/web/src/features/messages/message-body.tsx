import type { Message } from '@dossierbase/core';
import { Text, Typography } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { sanitiseRichText } from '../../fields/rich-text';
import { messagePlainText } from './message-text';

/** A message's text: its HTML cleaned again for display, or a notice worded in the reader's language. */
export function MessageBody({ message }: { message: Message }) {
  const { t } = useTranslation();
  if (message.notice) return <Text data-testid="message-text">{messagePlainText(message, t)}</Text>;
  return (
    <Typography>
      <div
        data-testid="message-text"
        // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised with DOMPurify to the whitelist
        dangerouslySetInnerHTML={{ __html: sanitiseRichText(message.message_text) }}
      />
    </Typography>
  );
}
