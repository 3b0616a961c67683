import type { Block } from '@dossierbase/core';
import { Button, Group, Modal } from '@mantine/core';
import { useViewportSize } from '@mantine/hooks';
import { IconPrinter } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { BlockContent, blockTitle } from './block-card';

// A block expanded into a large modal (spec document 1 section 2: "a block can be expanded into a
// large printable modal"). Print prints the modal alone: the page behind it is left out by the print
// style sheet (dashboard.css) while the modal is open.

export function BlockExpandModal({
  block,
  blocks,
  dateFormat,
  locale,
  onClose,
}: {
  block: Block;
  blocks: ReadonlyMap<number, Block>;
  dateFormat: string;
  locale: string | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { height } = useViewportSize();
  const title = blockTitle(block, locale, t);
  return (
    <Modal
      opened
      onClose={onClose}
      title={title}
      size="90%"
      className="block-expanded"
      data-testid="block-expanded"
    >
      <Group justify="flex-end" mb="xs" className="block-expanded-actions">
        <Button
          variant="default"
          leftSection={<IconPrinter size={16} />}
          onClick={() => window.print()}
          data-testid="block-expanded-print"
        >
          {t('dashboard.print')}
        </Button>
      </Group>
      <BlockContent
        block={block}
        blocks={blocks}
        dateFormat={dateFormat}
        height={Math.max(300, Math.round(height * 0.65))}
        locale={locale}
        eager
      />
    </Modal>
  );
}
