import { Pagination, type PaginationProps } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** Mantine's Pagination whose first, previous, next and last controls are named in the user's language. */
export function Pager(props: PaginationProps) {
  const { t } = useTranslation();
  return <Pagination getControlProps={(control) => ({ 'aria-label': t(`pager.${control}`) })} {...props} />;
}
