import { htmlToText } from '@dossierbase/core';
import { Anchor, Input, Loader, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { lazy, type MouseEvent, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { previewText, RICH_TEXT_PREVIEW } from './helpers';
import { sanitiseRichText } from './rich-text';
import type { FieldDisplayProps, FieldEditorProps } from './types';

// Tiptap and its styles load only when a rich text editor is shown.
const RichTextField = lazy(() => import('./rich-text-editor'));

export function TextareaEditor(props: FieldEditorProps) {
  return (
    <Suspense
      fallback={
        <Input.Wrapper label={props.label} withAsterisk={props.required}>
          <Loader size="sm" />
        </Input.Wrapper>
      }
    >
      <RichTextField {...props} />
    </Suspense>
  );
}

/** Spec: leaving through a link in rich text asks for confirmation first. */
function useConfirmedLinks() {
  const { t } = useTranslation();
  return (event: MouseEvent<HTMLElement>) => {
    const anchor = (event.target as HTMLElement).closest('a[href]');
    if (!(anchor instanceof HTMLAnchorElement)) return;
    event.preventDefault();
    event.stopPropagation(); // a list row behind it opens the dossier
    const href = anchor.href;
    const newTab = anchor.target === '_blank' || event.ctrlKey || event.metaKey;
    modals.openConfirmModal({
      title: t('fields.textarea.confirm_title'),
      children: <Text size="sm">{t('fields.textarea.confirm_redirect_changes')}</Text>,
      labels: { confirm: t('fields.textarea.continue'), cancel: t('common.cancel') },
      confirmProps: { 'data-testid': 'rich-text-link-continue' } as Record<string, string>,
      onConfirm: () => {
        if (newTab) window.open(href, '_blank', 'noopener,noreferrer');
        else window.location.assign(href);
      },
    });
  };
}

/** Sanitised HTML; long text shows a plain preview (160 list / 450 detail) with Read more / Read less. */
export function TextareaDisplay({ value, listMode }: FieldDisplayProps) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const confirmLink = useConfirmedLinks();
  if (typeof value !== 'string' || value === '') return null;
  const preview = previewText(
    htmlToText(value),
    listMode ? RICH_TEXT_PREVIEW.list : RICH_TEXT_PREVIEW.detail,
  );
  if (preview.cut && !open) {
    return (
      <div>
        <Text style={{ whiteSpace: 'pre-line' }}>{preview.text}</Text>
        <Anchor
          component="button"
          type="button"
          size="sm"
          data-testid="rich-text-read-more"
          onClick={(e) => {
            e.stopPropagation(); // a list row behind it opens the dossier
            setOpen(true);
          }}
        >
          {t('fields.textarea.read_more')}
        </Anchor>
      </div>
    );
  }
  return (
    <div>
      <div
        data-testid="rich-text-display"
        onClick={confirmLink}
        // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised with DOMPurify to the whitelist
        dangerouslySetInnerHTML={{ __html: sanitiseRichText(value, listMode) }}
      />
      {preview.cut ? (
        <Anchor
          component="button"
          type="button"
          size="sm"
          data-testid="rich-text-read-less"
          onClick={(e) => {
            e.stopPropagation();
            setOpen(false);
          }}
        >
          {t('fields.textarea.read_less')}
        </Anchor>
      ) : null}
    </div>
  );
}
