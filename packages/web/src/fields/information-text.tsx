import type { DisplayItem } from '@dossierbase/core';
import { ActionIcon, Box, Popover } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { dossierHref, pickCulture } from './helpers';
import { sanitiseInformationText } from './safe-html';
import { useFieldLocale } from './shared';

// A display item's information text and pre-text (display-field editor, Labels tab), per language.
// The pre-text stands above the field; the information text sits behind an info icon beside the
// label, or under the field when the item's show_info_direct is set. Both are sanitised to the
// contract's tags, and a {dossier:N} tag becomes a link that opens dossier N in a new window.

const DOSSIER_TAG = /\{dossier:([1-9]\d{0,9})\}/;

/**
 * The markup to show for an information text or pre-text. The tags become links after sanitising, as
 * DOM nodes in text only, so a tag can never end up inside an attribute or open an element.
 */
export function informationMarkup(html: string, linkText: (id: number) => string): string {
  const clean = sanitiseInformationText(html);
  const template = document.createElement('template');
  template.innerHTML = clean;
  // an image the author gave no text alternative is decorative to a screen reader (WCAG 1.1.1)
  for (const image of template.content.querySelectorAll('img:not([alt])')) image.setAttribute('alt', '');
  if (!DOSSIER_TAG.test(clean)) return template.innerHTML;
  const walker = document.createTreeWalker(template.content, NodeFilter.SHOW_TEXT);
  const texts: Text[] = [];
  while (walker.nextNode()) texts.push(walker.currentNode as Text);
  for (const text of texts) {
    // split keeps the captured ids at the odd places
    const parts = text.data.split(new RegExp(DOSSIER_TAG.source, 'g'));
    if (parts.length === 1) continue;
    const fragment = document.createDocumentFragment();
    parts.forEach((part, index) => {
      if (index % 2 === 0) {
        if (part) fragment.append(part);
        return;
      }
      const link = document.createElement('a');
      link.href = dossierHref(Number(part));
      link.target = '_blank';
      link.rel = 'noopener';
      link.textContent = linkText(Number(part));
      fragment.append(link);
    });
    text.replaceWith(fragment);
  }
  return template.innerHTML;
}

/** The item's information text and pre-text in the UI language, as markup to show ('' when none). */
function useItemTexts(item: DisplayItem) {
  const { t } = useTranslation();
  const locale = useFieldLocale();
  const texts = pickCulture(item.translations, locale)?.settings;
  const markup = (html: string | undefined) =>
    html?.trim() ? informationMarkup(html, (id) => t('fields.info.dossier_link', { id })) : '';
  return {
    information: markup(texts?.informationtext),
    pretext: markup(texts?.pretext),
    direct: item.settings?.show_info_direct === true,
  };
}

function Markup({ html, testId }: { html: string; testId: string }) {
  // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised by informationMarkup
  return <Box fz="sm" data-testid={testId} dangerouslySetInnerHTML={{ __html: html }} />;
}

/** The pre-text above the field. */
export function ItemPreText({ item }: { item: DisplayItem }) {
  const { pretext } = useItemTexts(item);
  return pretext ? <Markup html={pretext} testId={`item-pretext-${item.id}`} /> : null;
}

/** The information text under the field, when the item shows it directly. */
export function ItemInformationDirect({ item }: { item: DisplayItem }) {
  const { information, direct } = useItemTexts(item);
  if (!information || !direct) return null;
  return (
    <Box c="dimmed">
      <Markup html={information} testId={`item-info-${item.id}`} />
    </Box>
  );
}

/** The label with an info icon that opens the information text (unless it is shown directly). */
export function ItemLabel({ item, label }: { item: DisplayItem; label: string }) {
  const { t } = useTranslation();
  const { information, direct } = useItemTexts(item);
  if (!information || direct) return label;
  return (
    <>
      {label}{' '}
      <Popover width={320} position="bottom-start" withArrow shadow="md">
        <Popover.Target>
          <ActionIcon
            variant="subtle"
            size="xs"
            radius="xl"
            aria-label={t('fields.info.show')}
            style={{ verticalAlign: 'middle' }}
            data-testid={`item-info-toggle-${item.id}`}
          >
            <IconInfoCircle size={14} />
          </ActionIcon>
        </Popover.Target>
        <Popover.Dropdown>
          <Markup html={information} testId={`item-info-${item.id}`} />
        </Popover.Dropdown>
      </Popover>
    </>
  );
}
