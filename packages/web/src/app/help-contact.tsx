import { Anchor, type MantineSize } from '@mantine/core';

/** A help contact as configured: an e-mail address becomes a mail link, anything else stays text. */
export function HelpContact({ contact, size }: { contact: string; size?: MantineSize }) {
  if (!contact.includes('@')) return contact;
  return (
    <Anchor href={`mailto:${contact}`} size={size} underline="always">
      {contact}
    </Anchor>
  );
}
