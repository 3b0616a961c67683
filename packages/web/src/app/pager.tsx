import type { Pager as PagerAnswer } from '@dossierbase/core';
import { Pagination, type PaginationProps } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** Mantine's Pagination whose first, previous, next and last controls are named in the user's language. */
export function Pager(props: PaginationProps) {
  const { t } = useTranslation();
  return <Pagination getControlProps={(control) => ({ 'aria-label': t(`pager.${control}`) })} {...props} />;
}

/**
 * The pager of a paged answer, on its 0-based `page`: nothing while the answer is missing or fits on
 * one page.
 */
export function AnswerPager({
  pager,
  page,
  onPage,
  ...props
}: { pager: PagerAnswer | undefined; page: number; onPage: (page: number) => void } & Omit<
  PaginationProps,
  'total' | 'value' | 'onChange'
>) {
  if (!pager || pager.pages <= 1) return null;
  return <Pager {...props} total={pager.pages} value={page + 1} onChange={(next) => onPage(next - 1)} />;
}
